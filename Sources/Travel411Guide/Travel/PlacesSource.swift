import Foundation
import Travel411Batch
import Travel411Core
import Travel411Geocoder
import Travel411Store

/// The places database, opened only when a command needs it: the geocoder for names and subtitles,
/// the reader for the locality search and the basemap. Both are opened at most once per process.
public final class PlacesSource {
    /// How the database is opened: given its path and the call that opens it, makes the call, as often as
    /// it takes (again after a rebuild).
    public typealias Opening = (_ path: String, _ open: (String) throws -> Void) throws -> Void

    public let path: String
    private let opening: Opening
    private var openedGeocoder: ReverseGeocoder?
    private var openedDatabase: PlacesDatabase?

    /// `opening` is the executable's: it builds the database from Data/ first when it is missing, and rebuilds
    /// it when an older travel411 built it from there (the import's `PlacesDatabase.open(at:…)`). It is passed
    /// in rather than called from here so that the Guide does not depend on the import and compiles beside
    /// it, not after it, in a fresh clone's first build. By default the database is opened as it is.
    public init(path: String, opening: @escaping Opening = { path, open in try open(path) }) {
        self.path = path
        self.opening = opening
    }

    private func open<Opened>(with open: (String) throws -> Opened) throws -> Opened {
        var opened: Opened?
        try opening(path) { opened = try open($0) }
        // An `Opening` that returns without opening is a mistake in the caller: said, not crashed on.
        guard let opened else { throw UserFacingError("the places database at \(path) was not opened") }
        return opened
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
