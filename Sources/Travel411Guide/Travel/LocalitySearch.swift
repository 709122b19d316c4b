import Foundation
import Travel411Core
import Travel411Geocoder

/// The searches behind choosing a City, over the places database's localities (every locality layer,
/// GeoNames and OpenStreetMap places alike, with its country filled in).
public enum LocalitySearch {
    /// The most populous locality called `name` (ignoring ASCII case) in `countryCode`.
    public static func mostPopulous(named name: String, inCountry countryCode: String, in places: PlacesDatabase) throws -> Locality? {
        try requireLocalities(in: places)
        return try places.localities(named: name, inCountry: countryCode).max { $0.population < $1.population }
    }

    /// Localities within `radiusMetres` of `point` (optionally only those called `name`), nearest first.
    public static func near(
        _ point: Coordinate, radiusMetres: Double, named name: String? = nil, in places: PlacesDatabase
    ) throws -> [(locality: Locality, distanceMetres: Double)] {
        try requireLocalities(in: places)
        return try places.localities(near: point, radiusMetres: radiusMetres, named: name)
    }

    private static func requireLocalities(in places: PlacesDatabase) throws {
        guard try places.listsLocalities else { throw CityResolutionError.noLocalitiesTable(path: places.path) }
    }
}
