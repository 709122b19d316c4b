import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Store

/// Why a ``PlacesGeocoder`` could not open its database or answer.
///
/// Every case says what to do about it in ``description``. The library only reads places databases: one
/// that is missing or was built by another version of travel411 is rebuilt with the `travel411 import`
/// command, never by the library.
public enum PlacesGeocoderError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// No file at `path`.
    case databaseNotFound(path: String)
    /// The database was built by another version of travel411, whose lookup tables this one cannot read.
    /// `lookupTablesVersion` is the database's (nil when it has none); `expectedVersion` this library's.
    case outdatedDatabase(path: String, lookupTablesVersion: String?, expectedVersion: String)
    /// The file is not a travel411 places database (not SQLite, or SQLite without travel411's tables).
    case notAPlacesDatabase(path: String, reason: String)
    /// A lookup met a damaged part of the database (a page of the wrong size, a missing page). The answer
    /// would lack what that part holds, so it is not given.
    case damagedDatabase(path: String, reason: String)
    /// Latitude outside -90...90 or longitude outside -180...180, or not a finite number.
    case invalidCoordinate(latitude: Double, longitude: Double)
    /// A Nominatim option that needs data only the server reads (`namedetails`, polygon outlines).
    case unsupportedNominatimOption(String)
    /// The task was cancelled before every coordinate of a sequence was answered.
    case cancelled

    public var description: String {
        switch self {
        case .databaseNotFound(let path):
            return "\(path): no places database here. The library reads places databases but does not build them: "
                + "build one with `travel411 import --db \(path)` (the command-line tool of the same version)"
        case .outdatedDatabase(let path, let found, let expected):
            return "\(path): this places database was built by another version of travel411 (lookup tables "
                + "\(found ?? "missing"), this library reads \(expected)); rebuild it with `travel411 import` "
                + "of travel411 \(Travel411.version)"
        case .notAPlacesDatabase(let path, let reason):
            return "\(path): not a travel411 places database (\(reason)); build one with `travel411 import`"
        case .damagedDatabase(let path, let reason):
            return "\(path): the places database is damaged (\(reason)); rebuild it with `travel411 import`"
        case .invalidCoordinate(let latitude, let longitude):
            return "\(latitude),\(longitude) is not a coordinate: latitude must be in -90...90 and longitude in -180...180"
        case .unsupportedNominatimOption(let option):
            return "Nominatim's \(option) needs data only `travel411 serve` reads; the library answers without it"
        case .cancelled:
            return "cancelled before every coordinate was answered"
        }
    }

    public var errorDescription: String? { description }

    /// The error of opening `path`, from what the targets below throw.
    static func opening(_ path: String, failedWith error: any Error) -> PlacesGeocoderError {
        switch error {
        case let outdated as OutdatedPlacesDatabaseError:
            return .outdatedDatabase(
                path: path, lookupTablesVersion: outdated.lookupTablesVersion, expectedVersion: PlacesSchema.version)
        case let sqlite as SQLiteError:
            return .notAPlacesDatabase(path: path, reason: sqlite.message)
        default:
            // PlacesLookup's messages start with the path and end with the import to run; keep the middle.
            return .notAPlacesDatabase(path: path, reason: reason(in: String(describing: error), path: path))
        }
    }

    private static func reason(in message: String, path: String) -> String {
        var text = Substring(message)
        if text.hasPrefix(path + ": ") { text = text.dropFirst(path.count + 2) }
        if let advice = text.range(of: "; build one with") { text = text[..<advice.lowerBound] }
        return String(text)
    }
}
