import Foundation

/// A WGS 84 position in degrees. Latitude first, as people say it; shapefiles store x = longitude.
public struct Coordinate: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Validates user input: finite and inside [-90, 90] × [-180, 180].
    public init(validatingLatitude latitude: Double, longitude: Double) throws {
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw CoordinateError.latitudeOutOfRange(latitude)
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            throw CoordinateError.longitudeOutOfRange(longitude)
        }
        self.init(latitude: latitude, longitude: longitude)
    }

    /// Parses the two texts a user typed, naming the field that is wrong.
    public init(parsingLatitude latText: String, longitude lonText: String) throws {
        guard let lat = Double(latText.trimmingCharacters(in: .whitespaces)) else {
            throw CoordinateError.notANumber(field: "latitude", text: latText)
        }
        guard let lon = Double(lonText.trimmingCharacters(in: .whitespaces)) else {
            throw CoordinateError.notANumber(field: "longitude", text: lonText)
        }
        try self.init(validatingLatitude: lat, longitude: lon)
    }

    /// Accepts "LAT,LON" (with optional spaces) as one argument.
    public init(parsingPair text: String) throws {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw CoordinateError.notAPair(text) }
        try self.init(parsingLatitude: String(parts[0]), longitude: String(parts[1]))
    }
}

public enum CoordinateError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case latitudeOutOfRange(Double)
    case longitudeOutOfRange(Double)
    case notANumber(field: String, text: String)
    case notAPair(String)

    public var description: String {
        switch self {
        case .latitudeOutOfRange(let value):
            return "latitude \(Coordinate.format(value)) is outside [-90, 90]"
        case .longitudeOutOfRange(let value):
            return "longitude \(Coordinate.format(value)) is outside [-180, 180]"
        case .notANumber(let field, let text):
            return "\(field) '\(text)' is not a number"
        case .notAPair(let text):
            return "'\(text)' is not a coordinate; give LAT LON or \"LAT,LON\""
        }
    }

    public var errorDescription: String? { description }
}

extension Coordinate: CustomStringConvertible {
    public var description: String { "\(Coordinate.format(latitude)), \(Coordinate.format(longitude))" }

    /// Shortest round-tripping decimal text, without a trailing ".0" on whole numbers.
    package static func format(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

extension CoordinateError: Travel411Error {
    public var exitStatus: ExitStatus { .usage }
}
