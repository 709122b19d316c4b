import Travel411Core

/// The two kinds of pin on a destination's map, with the book's colours.
public enum PinKind: String, Sendable, Codable, CaseIterable {
    /// Fixed: an airport does not move.
    case airport
    /// Movable: the traveller drags it and it is renamed from the new spot.
    case city

    public var colour: PinColour {
        switch self {
        case .airport: return .green
        case .city: return .red
        }
    }

    public var isMovable: Bool { self == .city }
}

public enum PinColour: String, Sendable, Codable {
    case green, red
}

/// One pin as the map shows it.
public struct MapPin: Hashable, Sendable {
    public var kind: PinKind
    public var title: String
    /// From the reverse geocode of the pin's spot; nil until geocoded or where nothing is known.
    public var subtitle: String?
    public var coordinate: Coordinate

    public init(kind: PinKind, title: String, subtitle: String? = nil, coordinate: Coordinate) {
        self.kind = kind
        self.title = title
        self.subtitle = subtitle
        self.coordinate = coordinate
    }

    public var colour: PinColour { kind.colour }
}
