import Foundation

/// Where the travel commands reach the places database: the same one `where` uses, built from
/// Data/ on first use.
public enum TravelGuide {
    /// `announce` and `progress` report a first-use build of the database from Data/; `finished` follows it.
    public static func places(explicitPath: String?,
                              environment: [String: String] = ProcessInfo.processInfo.environment,
                              announce: @escaping (String) -> Void = { _ in },
                              progress: @escaping (ImportProgress) -> Void = { _ in },
                              finished: @escaping () -> Void = {}) -> PlacesSource {
        let source = PlacesSource(path: PlacesDatabaseLocation.resolve(explicitPath: explicitPath, environment: environment))
        source.announce = announce
        source.progress = progress
        source.finished = finished
        return source
    }
}

/// The places database, opened only when a command needs it: the geocoder for names and subtitles,
/// the raw database for the locality search. Both are opened at most once per process.
public final class PlacesSource {
    public let path: String
    private var openedGeocoder: ReverseGeocoder?
    private var openedDatabase: SQLiteDatabase?

    var announce: (String) -> Void = { _ in }
    var progress: (ImportProgress) -> Void = { _ in }
    var finished: () -> Void = {}

    public init(path: String) { self.path = path }

    private func buildIfMissing() throws {
        defer { finished() }
        try PlacesDatabase.buildIfMissing(at: path, announce: announce, progress: progress)
    }

    public func geocoder() throws -> ReverseGeocoder {
        if let openedGeocoder { return openedGeocoder }
        try buildIfMissing()
        let geocoder = try ReverseGeocoder(databasePath: path)
        openedGeocoder = geocoder
        return geocoder
    }

    /// The places database itself, read-only, for `LocalitySearch`.
    public func database() throws -> SQLiteDatabase {
        if let openedDatabase { return openedDatabase }
        try buildIfMissing()
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
