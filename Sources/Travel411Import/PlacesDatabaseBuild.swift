import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Store

/// Opening the places database, building it from the embedded `Data/` first when there is none yet, and
/// rebuilding it from there when an older travel411 built it from there.
extension PlacesDatabase {
    /// Builds the database from `Data/` if `path` does not exist. Returns the import summary when it built one.
    @discardableResult
    public static func buildIfMissing(
        at path: String, announce: (String) -> Void = { _ in }, progress: @escaping (ImportProgress) -> Void = { _ in }
    ) throws -> ImportSummary? {
        // What a killed build left behind (188 MB for Data/'s): only the next build would remove it, and once
        // the database exists there is none.
        AtomicFileReplacement.removeStaleTemporaryFiles(for: URL(fileURLWithPath: path))
        guard !FileManager.default.fileExists(atPath: path) else { return nil }
        let data = try EmbeddedData.locate()
        announce("No places database at \(path) yet: building it from \(data.path) (once; later lookups are instant).")
        return try build(at: path, from: data, progress: progress)
    }

    /// `open(path)`, after building the database if it is missing. When `open` finds it outdated
    /// (`OutdatedPlacesDatabaseError`) and it was imported from the embedded `Data/`, it is rebuilt from
    /// there and opened again; otherwise the error stands. A current database costs nothing more than
    /// `open` itself, which reads the version anyway.
    public static func open<Opened>(
        at path: String, announce: (String) -> Void = { _ in }, progress: @escaping (ImportProgress) -> Void = { _ in },
        with open: (String) throws -> Opened
    ) throws -> Opened {
        try buildIfMissing(at: path, announce: announce, progress: progress)
        do {
            return try open(path)
        } catch let outdated as OutdatedPlacesDatabaseError {
            try rebuildFromEmbeddedData(outdated, announce: announce, progress: progress)
            return try open(path)
        }
    }

    /// The geocoder for `--db` / `$TRAVEL411_DB` / the user data directory, built on first use and
    /// rebuilt after an upgrade.
    public static func openGeocoder(
        explicitPath: String?, loading: ReverseGeocoder.Loading = .onDemand, settings: GeocoderSettings = GeocoderSettings(),
        needs: PlacemarkNeeds = .all,
        announce: (String) -> Void = { _ in }, progress: @escaping (ImportProgress) -> Void = { _ in }
    ) throws -> ReverseGeocoder {
        let path = PlacesDatabaseLocation.resolve(explicitPath: explicitPath)
        return try open(at: path, announce: announce, progress: progress) { path in
            try ReverseGeocoder(databasePath: path, loading: loading, settings: settings, needs: needs)
        }
    }

    /// Rebuilds the outdated database from `Data/` if every file it was imported from lies there, or is
    /// a byte-for-byte copy of a file there (another clone's `Data/`), which loses nothing: the same data
    /// comes back in this version's tables. Rethrows `outdated` otherwise.
    private static func rebuildFromEmbeddedData(
        _ outdated: OutdatedPlacesDatabaseError, announce: (String) -> Void, progress: @escaping (ImportProgress) -> Void
    ) throws {
        guard let data = try? EmbeddedData.locate(), let sources = outdated.sources,
            sources.areAll(inside: data) || sources.areAll(copiesOf: data)
        else {
            throw outdated
        }
        announce(
            "The places database at \(outdated.path) was built by another version of travel411 (lookup tables \(outdated.lookupTablesVersion ?? "missing")): rebuilding it from \(data.path) (once; later lookups are instant)."
        )
        try build(at: outdated.path, from: data, progress: progress)
    }

    /// Imports `data` into a temporary file that replaces `path` only when the import succeeded.
    @discardableResult
    private static func build(at path: String, from data: URL, progress: @escaping (ImportProgress) -> Void) throws -> ImportSummary {
        try Importer(options: ImportOptions(paths: [data], databasePath: path), progress: progress).run()
    }
}
