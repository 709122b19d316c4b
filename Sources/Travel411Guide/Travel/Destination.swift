import Travel411Core

/// A trip: the airport one flies into (fixed) and the city one is visiting (movable).
public struct Destination: Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var airport: Airport
    public var city: DestinationCity

    public init(id: Int64, name: String, airport: Airport, city: DestinationCity) {
        self.id = id
        self.name = name
        self.airport = airport
        self.city = city
    }

    /// The airport pin first, then the city pin, without subtitles (those need the geocoder).
    public var pins: [MapPin] {
        [
            MapPin(kind: .airport, title: airport.name, coordinate: airport.coordinate),
            MapPin(kind: .city, title: city.name, coordinate: city.coordinate),
        ]
    }
}

/// The City pin's name and place.
public struct DestinationCity: Hashable, Sendable {
    public var name: String
    public var coordinate: Coordinate

    public init(name: String, coordinate: Coordinate) {
        self.name = name
        self.coordinate = coordinate
    }
}

/// One drag of the City pin, kept so that it can be listed and undone.
public struct CityMove: Hashable, Sendable {
    public var id: Int64
    public var destinationName: String
    /// UTC, ISO 8601.
    public var movedAt: String
    public var from: DestinationCity
    public var to: DestinationCity
    /// When `move-city --undo` put the city back; nil while the move stands.
    public var undoneAt: String?

    public var distanceMetres: Double { GreatCircle.distance(from: from.coordinate, to: to.coordinate) }
    public var bearingDegrees: Double { GreatCircle.initialBearing(from: from.coordinate, to: to.coordinate) }
    public var renamed: Bool { from.name != to.name }
}

/// The book's trip to London, created on first use of a state file: Heathrow's pin where the book
/// put it (a little east of the catalogue's runway-centre point) and the City at central London.
public enum BookLondon {
    public static let destinationName = "London"

    public static let airport = Airport(
        icao: "EGLL", iata: "LHR", name: "London Heathrow Airport", city: "London", subdivision: "England",
        countryCode: "GB", elevationFeet: 83, coordinate: Coordinate(latitude: 51.471184, longitude: -0.452542),
        timeZone: "Europe/London", localIdentifier: nil)

    public static let city = DestinationCity(name: "London", coordinate: Coordinate(latitude: 51.500153, longitude: -0.126236))
}
