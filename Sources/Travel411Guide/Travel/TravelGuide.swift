import Foundation
import Travel411Batch
import Travel411Core
import Travel411Geocoder
import Travel411Import
import Travel411Store

/// Where the travel commands reach the places database: the same one `where` uses, built from
/// Data/ on first use (and rebuilt from it after an upgrade).
public enum TravelGuide {
    /// `announce` and `progress` report a build of the database from Data/ (first use, or a rebuild after an
    /// upgrade); `finished` follows it.
    public static func places(
        explicitPath: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        announce: @escaping (String) -> Void = { _ in },
        progress: @escaping (ImportProgress) -> Void = { _ in },
        finished: @escaping () -> Void = {}
    ) -> PlacesSource {
        let source = PlacesSource(path: PlacesDatabaseLocation.resolve(explicitPath: explicitPath, environment: environment))
        source.announce = announce
        source.progress = progress
        source.finished = finished
        return source
    }
}

/// The places database, opened only when a command needs it: the geocoder for names and subtitles,
/// the reader for the locality search and the basemap. Both are opened at most once per process.
public final class PlacesSource {
    public let path: String
    private var openedGeocoder: ReverseGeocoder?
    private var openedDatabase: PlacesDatabase?

    var announce: (String) -> Void = { _ in }
    var progress: (ImportProgress) -> Void = { _ in }
    var finished: () -> Void = {}

    public init(path: String) { self.path = path }

    /// Built from Data/ first when missing, rebuilt when an older travel411 built it from there.
    private func open<Opened>(with open: (String) throws -> Opened) throws -> Opened {
        defer { finished() }
        return try PlacesDatabase.open(at: path, announce: announce, progress: progress, with: open)
    }

    public func geocoder() throws -> ReverseGeocoder {
        if let openedGeocoder { return openedGeocoder }
        let geocoder = try open { try ReverseGeocoder(databasePath: $0) }
        openedGeocoder = geocoder
        return geocoder
    }

    /// The places database's reader, for the locality search and the basemap.
    public func database() throws -> PlacesDatabase {
        if let openedDatabase { return openedDatabase }
        let database = try open { path in
            guard FileManager.default.fileExists(atPath: path) else { throw CityResolutionError.noPlacesDatabase(path: path) }
            return try PlacesDatabase(path: path)
        }
        openedDatabase = database
        return database
    }

    /// The reverse geocode of `coordinate`.
    public func placemark(for coordinate: Coordinate) throws -> Placemark {
        try geocoder().placemark(for: coordinate)
    }
}
