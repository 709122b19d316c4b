import Foundation
import Travel411Geocoder

/// How a placemark names the City pin and describes a pin's spot.
public enum CityNaming {
    /// The most specific place name a person would use for the spot: the sub-locality (Kensington
    /// lies in London), else the locality, else the administrative area. Nil when the placemark has
    /// none of them, as at sea.
    public static func cityName(from placemark: Placemark) -> String? {
        [placemark.subLocality, placemark.locality, placemark.administrativeArea]
            .lazy.compactMap(nonEmpty).first
    }

    /// A one-line description for a pin's subtitle: "Kensington, London, England, United Kingdom";
    /// at sea the water's name; else where the nearest place is. Nil when nothing is known.
    public static func subtitle(from placemark: Placemark) -> String? {
        var parts: [String] = []
        for part in [
            placemark.thoroughfare, placemark.subLocality, placemark.locality,
            placemark.administrativeArea, placemark.country,
        ].compactMap(nonEmpty)
        where !parts.contains(part) {
            parts.append(part)
        }
        if !parts.isEmpty { return parts.joined(separator: ", ") }
        return nonEmpty(placemark.ocean) ?? nonEmpty(placemark.inlandWater) ?? placemark.nearestLocality?.phrase
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}
