import Foundation
import Travel411Core
import Travel411Shapefile
import Travel411Store

/// `import --append FILE --db EXISTING`: the database is rebuilt from the sources its travel411_sources table
/// lists, with their `--level`/`--name-field`, and the new files. The lookup structures are built from all
/// features at once (an area index or a locality's neighbourhoods cannot be patched), so every old source must
/// still be readable; the old database stays as it is until the new one is complete.
enum ImportAppend {
    /// Puts the database's sources before the new paths in `options`; returns warnings.
    static func addPreviousSources(to options: inout ImportOptions) throws -> [String] {
        let path = options.databasePath
        guard FileManager.default.fileExists(atPath: path) else {
            throw ImportError(
                "--append: there is no database at \(path) to add to; import without --append to create it", exitStatus: .noInput)
        }
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        guard (try? database.tableExists("travel411_sources")) == true,
            let rows = try? database.query(
                """
                SELECT sources.path, sources.sha256, sources.level, contents.description FROM travel411_sources AS sources
                LEFT JOIN gpkg_contents AS contents ON contents.table_name = sources.layer ORDER BY sources.id
                """)
        else {
            throw ImportError("--append: \(path) is not a travel411 places database (it has no travel411_sources table)")
        }
        if options.featureLayers == nil,
            let kept = try? database.query("SELECT value FROM travel411_metadata WHERE key = ?", [.text(FeatureLayers.metadataKey)])
                .first?.first?.stringValue
        {
            options.featureLayers = FeatureLayers(rawValue: kept)
        }
        var previous: [URL] = []
        var seen = Set<String>()
        var warnings: [String] = []
        for row in rows {
            guard let source = row[0].stringValue, !source.isEmpty, seen.insert(source).inserted,
                row[3].stringValue?.hasPrefix(OSMCountryGridLayer.descriptionPrefix) != true
            else { continue }
            let url = URL(fileURLWithPath: source)
            let isExtract = OSMExtractImport.isExtract(url)
            guard FileManager.default.fileExists(atPath: source) else {
                throw ImportError(
                    "--append: \(path) was imported from \(source), which is no longer there; --append rebuilds the database from all its sources: put it back, or import the files you want without --append"
                )
            }
            let files = isExtract ? [url] : ShapefileDiscovery.componentFiles(of: url)
            if let recorded = row[1].stringValue, !recorded.isEmpty, let sum = try? SourceChecksum.sha256Hex(ofFiles: files),
                sum != recorded
            {
                warnings.append("\(source) has changed since it was imported into \(path); its current content is read")
            }
            if let description = row[3].stringValue, let mapping = LayoutMapping(layerDescription: description),
                let level = PlaceLevel(rawValue: mapping.level)
            {
                options.fileLevels.append(FileOption(file: source, value: level))
                options.fileNameFields.append(FileOption(file: source, value: mapping.nameField))
            }
            previous.append(url)
        }
        let known = Set(previous.map { ImportedSources.resolved($0.path) })
        var added: [URL] = []
        for url in options.paths {
            // A folder stands for its shapefiles: those already in the database are named one by one.
            let files = OSMExtractImport.isExtract(url) ? [url] : (try? ShapefileDiscovery.shapefiles(in: [url])) ?? [url]
            let again = files.filter { known.contains(ImportedSources.resolved($0.path)) }
            for file in again {
                warnings.append("\(file.path) is already in \(path): it is read again, once, not added twice")
            }
            if again.count < files.count { added.append(url) }
        }
        options.paths = previous + added
        return warnings
    }
}
