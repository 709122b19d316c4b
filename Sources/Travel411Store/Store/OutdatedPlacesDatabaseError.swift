import Foundation
import Travel411Core

/// A places database whose lookup tables another version of travel411 built. `PlacesDatabase.open` rebuilds
/// one that was imported from the embedded Data/; one imported from other shapefiles is the user's data,
/// never replaced behind their back, so the message gives the import that rebuilds it.
public struct OutdatedPlacesDatabaseError: Error, LocalizedError, CustomStringConvertible {
    public let path: String
    /// The database's `lookup_schema_version`; nil when it has none.
    public let lookupTablesVersion: String?
    /// Nil when the database does not say what it was imported from.
    package let sources: ImportedSources?

    /// Reads the sources from `database`, the outdated database itself, still open.
    package init(path: String, lookupTablesVersion: String?, reading database: SQLiteDatabase) {
        self.path = path
        self.lookupTablesVersion = lookupTablesVersion
        sources = ImportedSources.read(from: database)
    }

    public var description: String {
        let problem =
            "\(path): this places database was built by another version of travel411 (lookup tables \(lookupTablesVersion ?? "missing"))"
        guard let sources else { return problem + "; rebuild it with `travel411 import`" }
        // Made when shown, since it looks at the source folders: a database that gets rebuilt never needs it.
        let command = ReimportCommand(sources: sources, databasePath: path).text
        return problem + "; rebuild it from its shapefiles with `\(command)`"
    }

    public var errorDescription: String? { description }
}

extension OutdatedPlacesDatabaseError: Travel411Error {
    public var exitStatus: ExitStatus { .dataError }
}
