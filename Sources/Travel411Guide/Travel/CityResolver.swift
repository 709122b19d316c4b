import Foundation
import Travel411Core
import Travel411Geocoder

/// How the user chose the City of a new destination.
public enum CityRequest: Hashable, Sendable {
    /// `--city NAME`.
    case named(String)
    /// `--city-at LAT LON`: named from the reverse geocode.
    case at(Coordinate)
    /// Neither: the airport's own city.
    case airportsCity
}

/// The City chosen, with a note when it had to settle for something less than asked.
public struct ResolvedCity: Hashable, Sendable {
    public var city: DestinationCity
    public var warning: String?
}

public enum CityResolver {
    /// Places of the requested name this close to the airport are preferred over bigger namesakes
    /// elsewhere in the country: from Heathrow, "Kensington" is the London one, not Liverpool's.
    public static let nearbyRadiusMetres = 100_000.0
    /// How far from the airport a city of the requested name may lie when the airport's country has
    /// none (EuroAirport Basel-Mulhouse is in France but serves Basel).
    public static let crossBorderRadiusMetres = 300_000.0
    /// How far from the airport to look for a populous place when its city is not in the database.
    public static let airportSurroundingsRadiusMetres = 50_000.0

    /// The one place where a City is chosen. By name: the most populous locality of that name near
    /// the airport, else in the airport's country, else the nearest of that name across the border.
    /// By position: named from the geocode. By default: the airport's city, found the same way, else
    /// the most populous place near the airport.
    public static func resolve(_ request: CityRequest, for airport: Airport, places: PlacesSource) throws -> ResolvedCity {
        switch request {
        case .at(let coordinate):
            let placemark = try places.placemark(for: coordinate)
            if let name = CityNaming.cityName(from: placemark) {
                return ResolvedCity(city: DestinationCity(name: name, coordinate: coordinate), warning: nil)
            }
            if let nearest = placemark.nearestLocality?.name {
                return ResolvedCity(
                    city: DestinationCity(name: nearest, coordinate: coordinate),
                    warning:
                        "no locality or administrative area at \(coordinate); the City is named '\(nearest)' after the nearest known place")
            }
            return ResolvedCity(
                city: DestinationCity(name: airport.city, coordinate: coordinate),
                warning: "no place name known at \(coordinate); the City is named '\(airport.city)' after the airport's city")

        case .named(let rawName):
            let name = rawName.trimmingCharacters(in: .whitespaces)
            if let locality = try findLocality(named: name, for: airport, database: places.database()) {
                return ResolvedCity(city: DestinationCity(name: locality.name, coordinate: locality.coordinate), warning: nil)
            }
            throw CityResolutionError.noLocality(name: name, country: airport.countryCode, airport: airport.code)

        case .airportsCity:
            let database = try places.database()
            if let locality = try findLocality(named: airport.city, for: airport, database: database) {
                return ResolvedCity(city: DestinationCity(name: locality.name, coordinate: locality.coordinate), warning: nil)
            }
            if let nearby = try LocalitySearch.near(airport.coordinate, radiusMetres: airportSurroundingsRadiusMetres, in: database)
                .max(by: { $0.locality.population < $1.locality.population })
            {
                return ResolvedCity(
                    city: DestinationCity(name: nearby.locality.name, coordinate: nearby.locality.coordinate),
                    warning:
                        "no locality named '\(airport.city)' found; chose \(nearby.locality.name), the most populous place within \(Int(airportSurroundingsRadiusMetres / 1000)) km of \(airport.code)"
                )
            }
            return ResolvedCity(
                city: DestinationCity(name: airport.city, coordinate: airport.coordinate),
                warning:
                    "no locality found near \(airport.code); the City starts at the airport, named '\(airport.city)'; move it with `travel411 move-city`"
            )
        }
    }

    private static func findLocality(named name: String, for airport: Airport, database: PlacesDatabase) throws -> Locality? {
        guard !name.isEmpty else { return nil }
        if let nearby = try LocalitySearch.near(airport.coordinate, radiusMetres: nearbyRadiusMetres, named: name, in: database)
            .max(by: { $0.locality.population < $1.locality.population })
        {
            return nearby.locality
        }
        if let inCountry = try LocalitySearch.mostPopulous(named: name, inCountry: airport.countryCode, in: database) {
            return inCountry
        }
        return try LocalitySearch.near(airport.coordinate, radiusMetres: crossBorderRadiusMetres, named: name, in: database)
            .first?.locality
    }
}

public enum CityResolutionError: Error, Equatable, LocalizedError, CustomStringConvertible {
    case noLocality(name: String, country: String, airport: String)
    case noPlacesDatabase(path: String)
    case noLocalitiesTable(path: String)

    public var description: String {
        switch self {
        case .noLocality(let name, let country, let airport):
            return
                "no locality named '\(name)' in \(country) or within \(Int(CityResolver.crossBorderRadiusMetres / 1000)) km of \(airport); give the City's position with --city-at LAT LON"
        case .noPlacesDatabase(let path):
            return "the places database \(path) does not exist; build it with `travel411 import`, or pass --db"
        case .noLocalitiesTable(let path):
            return "the places database \(path) has no localities table; rebuild it with `travel411 import`"
        }
    }

    public var errorDescription: String? { description }
}

extension CityResolutionError: Travel411Error {
    public var exitStatus: ExitStatus {
        switch self {
        case .noLocality: return .failure
        case .noPlacesDatabase: return .noInput
        case .noLocalitiesTable: return .dataError
        }
    }
}
