import Foundation
import Travel411Core
import Travel411Store

/// An import without `--append` replaces its database. What the old one was imported from and the new one
/// is not is said in a warning: a user who meant to add an extract to the default database would otherwise
/// find out only when London answered with a country.
struct ReplacedDatabase {
    let path: String
    package let sources: ImportedSources

    /// The sources of the database at `path`; nil when there is none, or it is no travel411 database.
    package static func read(at path: String) -> ReplacedDatabase? {
        guard FileManager.default.fileExists(atPath: path),
            let database = try? SQLiteDatabase(path: path, mode: .readOnly),
            let sources = ImportedSources.read(from: database)
        else { return nil }
        return ReplacedDatabase(path: path, sources: sources)
    }

    /// The old sources this import read neither at the same path nor as the same bytes elsewhere (a moved
    /// clone's Data/), named in a warning; nil when there are none.
    func warning(imported: [URL], checksums: [URL: String]) -> String? {
        let paths = Set(imported.map { ImportedSources.resolved($0.path) })
        let sums = Set(checksums.values)
        let left = sources.paths.filter { path in
            !paths.contains(ImportedSources.resolved(path)) && !(sources.checksums[path].map(sums.contains) ?? false)
        }
        guard !left.isEmpty else { return nil }
        let names = left.prefix(3).map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", ")
        let more = left.count > 3 ? " and \(left.count - 3) more" : ""
        return
            "replaced \(path), which also held the data of \(names)\(more) (not among this import's inputs); `travel411 import --append FILE --db \(path)` adds to a database instead"
    }
}
