import Foundation
import Travel411Batch
import Travel411Core
import Travel411Geocoder
import Travel411Store

/// An event with our own answer for where it is, beside USGS's `place`.
public struct GeocodedQuake: Hashable, Sendable {
    public var selected: SelectedQuake
    /// The reverse geocode of the epicentre, the same as `travel411 where LAT LON` gives.
    public var placemark: Placemark
    /// "34 km SSW of Hachijō, Tokyo, Japan"; over 300 km from any town, where the epicentre itself is
    /// comes first: "South Pacific Ocean, 946 km NNE of Hicks Bay, …" or "Alaska, United States, 888 km ESE of …".
    public var description: String

    public var quake: Quake { selected.quake }
}

/// Describes epicentres from our places database, in the shape USGS's `place` has ("distance
/// direction of town, region, country") so the two can be compared side by side.
///
/// The town's administrative area and country are those of the town, not of the epicentre: an
/// event 34 km off Hachijō-jima lies at sea, but the island is in Tokyo, Japan. When the nearest
/// town is over 300 km away, the epicentre's own sea or ocean (at sea) or administrative area and
/// country (on land) come first, since the town alone would mislead.
public final class QuakeDescriber {
    /// Beyond this, a town is too far to be the whole answer: the epicentre's own sea or region comes first.
    public static let farFromTownMetres = 300_000.0

    private let geocoder: ReverseGeocoder
    /// The region and country of each town once looked up; feeds name the same towns again and again.
    private var townRegions: [Coordinate: (area: String?, country: String?)] = [:]

    public init(geocoder: ReverseGeocoder) {
        self.geocoder = geocoder
    }

    public func geocode(_ selected: SelectedQuake) -> GeocodedQuake {
        let placemark = geocoder.placemark(for: selected.quake.coordinate)
        return GeocodedQuake(selected: selected, placemark: placemark, description: describe(placemark))
    }

    public func geocode(_ selected: [SelectedQuake]) -> [GeocodedQuake] {
        selected.map(geocode)
    }

    /// The description of a placemark, by the rule in the type's comment.
    public func describe(_ placemark: Placemark) -> String {
        let water = placemark.country == nil ? (placemark.ocean ?? placemark.inlandWater) : nil
        guard let town = placemark.nearestLocality else {
            return water ?? placemark.country ?? "unknown"
        }
        let region = townRegion(town)
        var parts = [town.phrase]
        // "Tokyo, Japan", without repeating the town's own name ("Singapore, Singapore").
        if let area = region.area, area != town.name { parts.append(area) }
        if let country = region.country, country != town.name, country != region.area { parts.append(country) }
        // Far from any town, say first where the epicentre itself is: the sea, or the land's region.
        if town.distanceMetres > Self.farFromTownMetres {
            let own = water.map { [$0] } ?? [placemark.administrativeArea, placemark.country].compactMap { $0 }
            if own != Array(parts.dropFirst()) { parts.insert(contentsOf: own, at: 0) }
        }
        return parts.joined(separator: ", ")
    }

    private func townRegion(_ town: NearbyPlace) -> (area: String?, country: String?) {
        if let known = townRegions[town.coordinate] { return known }
        let placemark = geocoder.placemark(for: town.coordinate)
        let region = (area: placemark.administrativeArea, country: placemark.country)
        townRegions[town.coordinate] = region
        return region
    }
}
