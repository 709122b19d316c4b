/// The answer for one coordinate, with Apple's CLPlacemark field names so that app developers
/// recognise them. Every field may be nil: at sea most are.
public struct Placemark: Hashable, Sendable, Codable {
    public var location: Coordinate
    public var name: String?
    public var thoroughfare: String?
    public var subThoroughfare: String?
    public var locality: String?
    public var subLocality: String?
    public var administrativeArea: String?
    public var subAdministrativeArea: String?
    public var postalCode: String?
    public var country: String?
    public var isoCountryCode: String?
    public var timeZone: String?
    public var inlandWater: String?
    public var ocean: String?
    /// The nearest locality point, with the distance and bearing from it to the queried location.
    public var nearestLocality: NearbyPlace?

    public init(location: Coordinate) { self.location = location }

    /// Every key, `null` when absent, so that JSON readers always see the same shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(location, forKey: .location)
        try container.encode(name, forKey: .name)
        try container.encode(thoroughfare, forKey: .thoroughfare)
        try container.encode(subThoroughfare, forKey: .subThoroughfare)
        try container.encode(locality, forKey: .locality)
        try container.encode(subLocality, forKey: .subLocality)
        try container.encode(administrativeArea, forKey: .administrativeArea)
        try container.encode(subAdministrativeArea, forKey: .subAdministrativeArea)
        try container.encode(postalCode, forKey: .postalCode)
        try container.encode(country, forKey: .country)
        try container.encode(isoCountryCode, forKey: .isoCountryCode)
        try container.encode(timeZone, forKey: .timeZone)
        try container.encode(inlandWater, forKey: .inlandWater)
        try container.encode(ocean, forKey: .ocean)
        try container.encode(nearestLocality, forKey: .nearestLocality)
    }
}

/// Where the queried point lies relative to a named place: "2.6 km NE of Cranford".
public struct NearbyPlace: Hashable, Sendable, Codable {
    public var name: String
    public var coordinate: Coordinate
    /// Great-circle metres from the place to the queried point.
    public var distanceMetres: Double
    /// Initial bearing from the place to the queried point.
    public var bearingDegrees: Double

    public init(name: String, coordinate: Coordinate, distanceMetres: Double, bearingDegrees: Double) {
        self.name = name
        self.coordinate = coordinate
        self.distanceMetres = distanceMetres
        self.bearingDegrees = bearingDegrees
    }

    public var compassPoint: CompassPoint { CompassPoint(bearing: bearingDegrees) }

    /// "2.6 km NE of Cranford"; "in Cranford" within 100 m.
    public var phrase: String {
        if distanceMetres < 100 { return "in \(name)" }
        return "\(DistanceFormatter.humanReadable(metres: distanceMetres)) \(compassPoint.rawValue) of \(name)"
    }
}

public enum DistanceFormatter {
    /// Metres below 1 km, one decimal of km below 100 km, whole km beyond.
    public static func humanReadable(metres: Double) -> String {
        if metres < 1000 { return "\(Int(metres.rounded())) m" }
        let km = metres / 1000
        if km < 100 { return "\((km * 10).rounded() / 10) km" }
        return "\(Int(km.rounded())) km"
    }
}
