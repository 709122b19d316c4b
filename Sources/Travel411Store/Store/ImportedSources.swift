import Foundation
import Travel411Core

/// What a places database was imported from: the shapefiles its travel411_sources table lists, and the
/// `--level`/`--name-field` of that import if it mapped a layout. Enough to repeat the import.
package struct ImportedSources: Equatable, Sendable {
    /// The shapefiles' paths, in import order, each once.
    package var paths: [String]
    package var mapping: LayoutMapping?
    /// Each path's recorded SHA-256 of its shapefile's files (`SourceChecksum`), where the table has one.
    package var checksums: [String: String] = [:]

    /// Nil when the table is missing, unreadable or empty. Read defensively: an outdated database may come
    /// from any earlier travel411, or from something else that happens to have a travel411_metadata table.
    package static func read(from database: SQLiteDatabase) -> ImportedSources? {
        guard (try? database.tableExists("travel411_sources")) == true,
            // Not the pieces of Nominatim's country grid an extract's import adds (`PlacesSchema.countryGridDescription`):
            // read with the extract, not an input of their own.
            let rows = try? database.query(
                """
                SELECT sources.path, sources.sha256 FROM travel411_sources AS sources
                LEFT JOIN gpkg_contents AS contents ON contents.table_name = sources.layer
                WHERE contents.description IS NULL OR substr(contents.description, 1, ?) != ? ORDER BY sources.id
                """,
                [.integer(Int64(PlacesSchema.countryGridDescription.utf8.count)), .text(PlacesSchema.countryGridDescription)])
        else { return nil }
        var seen = Set<String>()
        let paths = rows.compactMap { $0.first?.stringValue }.filter { !$0.isEmpty && seen.insert($0).inserted }
        var checksums: [String: String] = [:]
        for row in rows {
            if let path = row.first?.stringValue, row.count > 1, let sum = row[1].stringValue, !sum.isEmpty { checksums[path] = sum }
        }
        guard !paths.isEmpty else { return nil }
        let descriptions =
            (try? database.query(
                """
                SELECT contents.description FROM travel411_sources AS sources
                JOIN gpkg_contents AS contents ON contents.table_name = sources.layer ORDER BY sources.id
                """)) ?? []
        let mapping = descriptions.lazy.compactMap { $0.first?.stringValue.flatMap(LayoutMapping.init(layerDescription:)) }.first
        return ImportedSources(paths: paths, mapping: mapping, checksums: checksums)
    }

    /// Whether every source lies inside `folder`, symlinks resolved on both sides.
    package func areAll(inside folder: URL) -> Bool {
        let folderPath = Self.resolved(folder.path)
        let prefix = folderPath.hasSuffix("/") ? folderPath : folderPath + "/"
        return paths.allSatisfy { Self.resolved($0).hasPrefix(prefix) }
    }

    /// The absolute path with symlinks, `.` and `..` resolved, for telling whether two paths name one file.
    package static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }
}
