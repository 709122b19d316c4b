import Foundation

/// Opens the places database, building it from the embedded `Data/` first when there is none yet.
public enum PlacesDatabase {
    /// Builds the database from `Data/` if `path` does not exist. Returns the import summary when it built one.
    @discardableResult
    public static func buildIfMissing(
        at path: String, announce: (String) -> Void = { _ in }, progress: @escaping (ImportProgress) -> Void = { _ in }
    ) throws -> ImportSummary? {
        guard !FileManager.default.fileExists(atPath: path) else { return nil }
        let data = try EmbeddedData.locate()
        announce("No places database at \(path) yet: building it from \(data.path) (once; later lookups are instant).")
        return try Importer(options: ImportOptions(paths: [data], databasePath: path), progress: progress).run()
    }

    /// The geocoder for `--db` / `$TRAVEL411_DB` / the user data directory, built on first use.
    public static func openGeocoder(
        explicitPath: String?, loading: ReverseGeocoder.Loading = .onDemand, settings: GeocoderSettings = GeocoderSettings(),
        needs: PlacemarkNeeds = .all,
        announce: (String) -> Void = { _ in }, progress: @escaping (ImportProgress) -> Void = { _ in }
    ) throws -> ReverseGeocoder {
        let path = PlacesDatabaseLocation.resolve(explicitPath: explicitPath)
        try buildIfMissing(at: path, announce: announce, progress: progress)
        return try ReverseGeocoder(databasePath: path, loading: loading, settings: settings, needs: needs)
    }
}
