import Foundation
import Travel411Core

// The one JSON shape of each travel type, wherever a command prints it. Each type encodes through a
// private shape struct whose synthesised `Encodable` writes absent values as `null` (`EncodedAsNull`), so
// there is no hand-written encoder to keep in step with the properties.

extension Airport: Encodable {
    private struct Shape: Encodable {
        var code: String
        @EncodedAsNull var iata: String?
        var icao: String
        @EncodedAsNull var localIdentifier: String?
        var name: String
        var city: String
        var subdivision: String
        var country: String
        @EncodedAsNull var elevationFeet: Double?
        var timeZone: String
        var latitude: Double
        var longitude: Double
    }

    public func encode(to encoder: any Encoder) throws {
        try Shape(
            code: code, iata: iata, icao: icao, localIdentifier: localIdentifier, name: name, city: city,
            subdivision: subdivision, country: countryCode, elevationFeet: elevationFeet, timeZone: timeZone,
            latitude: coordinate.latitude, longitude: coordinate.longitude
        ).encode(to: encoder)
    }
}

extension MapPin: Encodable {
    private struct Shape: Encodable {
        var kind: String
        var colour: String
        var title: String
        @EncodedAsNull var subtitle: String?
        var latitude: Double
        var longitude: Double
        var movable: Bool
    }

    public func encode(to encoder: any Encoder) throws {
        try Shape(
            kind: kind.rawValue, colour: colour.rawValue, title: title, subtitle: subtitle,
            latitude: coordinate.latitude, longitude: coordinate.longitude, movable: kind.isMovable
        ).encode(to: encoder)
    }
}

extension DestinationCity: Encodable {
    private struct Shape: Encodable {
        var name: String
        var latitude: Double
        var longitude: Double
    }

    public func encode(to encoder: any Encoder) throws {
        try Shape(name: name, latitude: coordinate.latitude, longitude: coordinate.longitude).encode(to: encoder)
    }
}

extension CityMove: Encodable {
    private struct Shape: Encodable {
        var id: Int64
        var destination: String
        var movedAt: String
        var from: DestinationCity
        var to: DestinationCity
        var distanceMetres: Double
        var bearingDegrees: Double
        @EncodedAsNull var undoneAt: String?
    }

    public func encode(to encoder: any Encoder) throws {
        try Shape(
            id: id, destination: destinationName, movedAt: movedAt, from: from, to: to,
            distanceMetres: distanceMetres.roundedToTenths, bearingDegrees: bearingDegrees.roundedToTenths, undoneAt: undoneAt
        ).encode(to: encoder)
    }
}

extension AirportDistance: Encodable {
    private struct Shape: Encodable {
        var airport: Airport
        var distanceMetres: Double
        var bearingDegrees: Double
        var compassPoint: String
    }

    public func encode(to encoder: any Encoder) throws {
        try Shape(
            airport: airport, distanceMetres: distanceMetres.roundedToTenths, bearingDegrees: bearingDegrees.roundedToTenths,
            compassPoint: compassPoint.rawValue
        ).encode(to: encoder)
    }
}
