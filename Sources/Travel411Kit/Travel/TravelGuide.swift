import Foundation

/// Where the travel commands reach the places database: the same one `where` uses, built from
/// Data/ on first use.
public enum TravelGuide {
    public static func places(explicitPath: String?,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> PlacesSource {
        PlacesSource(path: PlacesDatabaseLocation.resolve(explicitPath: explicitPath, environment: environment))
    }
}

/// The places database, opened only when a command needs it: the geocoder for names and subtitles,
/// the raw database for the locality search. Both are opened at most once per process.
public final class PlacesSource {
    public let path: String
    private var openedGeocoder: ReverseGeocoder?
    private var openedDatabase: SQLiteDatabase?

    public init(path: String) { self.path = path }

    public func geocoder() throws -> ReverseGeocoder {
        if let openedGeocoder { return openedGeocoder }
        try PlacesDatabase.buildIfMissing(at: path)
        let geocoder = try ReverseGeocoder(databasePath: path)
        openedGeocoder = geocoder
        return geocoder
    }

    /// The places database itself, read-only, for `LocalitySearch`.
    public func database() throws -> SQLiteDatabase {
        if let openedDatabase { return openedDatabase }
        try PlacesDatabase.buildIfMissing(at: path)
        guard FileManager.default.fileExists(atPath: path) else { throw CityResolutionError.noPlacesDatabase(path: path) }
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        openedDatabase = database
        return database
    }

    /// The reverse geocode of `coordinate`.
    public func placemark(for coordinate: Coordinate) throws -> Placemark {
        try geocoder().placemark(for: coordinate)
    }
}
