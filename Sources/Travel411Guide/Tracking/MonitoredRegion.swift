import Foundation
import Travel411Core
import Travel411Geocoder

/// A circular region watched for enter and exit, as Core Location's `CLCircularRegion`.
public struct MonitoredRegion: Hashable, Sendable, Codable {
    /// A device monitors at most this many regions at once.
    public static let maximumCount = 20
    /// The largest radius accepted: Core Location's `maximumRegionMonitoringDistance` is in this range,
    /// and a larger circle is a country, not a place to arrive at.
    public static let maximumRadiusMetres = 400_000.0

    public var name: String
    public var center: Coordinate
    public var radiusMetres: Double
    /// Said when the region is entered or left; nil gives "Entered NAME" / "Left NAME".
    public var message: String?

    public init(name: String, center: Coordinate, radiusMetres: Double, message: String? = nil) {
        self.name = name
        self.center = center
        self.radiusMetres = radiusMetres
        self.message = message
    }

    /// A region that passes the rules, or the reason it does not.
    public static func validated(name rawName: String, center: Coordinate, radiusMetres: Double, message: String?) throws -> MonitoredRegion
    {
        let name = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw TrackingError.invalidRegion("the name is empty") }
        guard name.count <= 100 else { throw TrackingError.invalidRegion("the name is longer than 100 characters") }
        guard !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw TrackingError.invalidRegion("the name contains control characters")
        }
        guard radiusMetres.isFinite, radiusMetres > 0 else {
            throw TrackingError.invalidRegion("the radius must be a positive number of metres, not \(Coordinate.format(radiusMetres))")
        }
        guard radiusMetres <= maximumRadiusMetres else {
            throw TrackingError.invalidRegion(
                "a radius of \(DistanceFormatter.humanReadable(metres: radiusMetres)) is more than the \(Int(maximumRadiusMetres / 1000)) km a region may have"
            )
        }
        let text = message?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let text, text.count > 500 { throw TrackingError.invalidRegion("the message is longer than 500 characters") }
        // One event is one line of text output: no line breaks or escape sequences in a message.
        if let text, text.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) {
            throw TrackingError.invalidRegion("the message contains control characters (line breaks, tabs, escapes)")
        }
        return MonitoredRegion(name: name, center: center, radiusMetres: radiusMetres, message: (text?.isEmpty ?? true) ? nil : text)
    }

    /// `NAME=LAT,LON,RADIUS`, as `track --region` takes it.
    public static func parse(inline text: String) throws -> MonitoredRegion {
        guard let equals = text.lastIndex(of: "=") else {
            throw TrackingError.invalidRegion("'\(DisplayText.sanitized(text))' is not NAME=LAT,LON,RADIUS")
        }
        let parts = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 3 else {
            throw TrackingError.invalidRegion("'\(DisplayText.sanitized(text))' is not NAME=LAT,LON,RADIUS (e.g. home=51.5,-0.12,100)")
        }
        let center: Coordinate
        do { center = try Coordinate(parsingLatitude: parts[0], longitude: parts[1]) } catch {
            throw TrackingError.invalidRegion("'\(DisplayText.sanitized(text))': \(error.localizedDescription)")
        }
        guard let radius = Double(parts[2]) else {
            throw TrackingError.invalidRegion(
                "'\(DisplayText.sanitized(text))': the radius '\(DisplayText.sanitized(parts[2]))' is not a number of metres")
        }
        return try validated(name: String(text[..<equals]), center: center, radiusMetres: radius, message: nil)
    }

    public var enterMessage: String { message ?? "Entered \(name)" }
    public var exitMessage: String { message ?? "Left \(name)" }
}
