import Foundation
import Travel411Store

extension ReverseGeocoder {
    /// The time zone and the country never contradict each other: where the point's zone belongs to another
    /// country than the one answered (tzdata's zone.tab, as `TerritoryAssignment` reads it), the answer takes
    /// the country's own zone when the country has only one (a Ruggell street by the Rhine, inside the
    /// extract's Liechtenstein but in the zones' Switzerland, simplified to 0.002°: Europe/Vaduz, not
    /// Europe/Zurich). The country itself is never changed here, so that a batch asking for the country alone
    /// answers as one asking for both; a country of several zones keeps the point's.
    func reconcileTimeZoneAndCountry(_ record: inout PlacemarkRecord) {
        guard record.country >= 0, record.timeZone >= 0 else { return }
        // Borrowed: a strong reference to the level was retained and released per point, on a count both of a
        // batch's threads share.
        _ = withArea(.timezone) { zones in reconcileTimeZoneAndCountry(&record, zones: zones) }
    }

    private func reconcileTimeZoneAndCountry(_ record: inout PlacemarkRecord, zones: PlacesLookup.AreaLevel) {
        let zoneCountry = zones.countryFeature(of: record.timeZone)
        guard zoneCountry >= 0, zoneCountry != record.country else { return }
        // Only where an extract's rules answer the country from Nominatim's grid: elsewhere (the embedded default)
        // every territory has its own country, and a folded territory's zone by its border (Saint-Martin's beside
        // Sint Maarten, French Guiana's beside Suriname) is still another country's.
        guard !(record.followsNominatim && isFoldedTerritory(zoneCountry)) else { return }
        let own = soleTimeZone(ofCountry: record.country, zones: zones)
        if own >= 0 { record.timeZone = own }
    }

    /// The only zone of the country of a country feature, -1 where it has none or several. The zones name the first
    /// feature of each code (`LookupTablesWriter.countryFeaturesByCode`); a country of several features (the grid's
    /// pieces of France by Monaco, by Andorra and on Saint-Barthélemy, once their extracts share a database) is
    /// looked up by its code, so that each piece's points answer as the first's (issue 35). Only a feature no zone
    /// names is looked up so: one that several zones name (the United States) has none, at no cost per point.
    private func soleTimeZone(ofCountry country: Int32, zones: PlacesLookup.AreaLevel) -> Int32 {
        if Int(country) < soleTimeZones.count, soleTimeZones[Int(country)] != Self.noZoneOfItsOwn {
            return max(soleTimeZones[Int(country)], -1)
        }
        guard let code = withArea(.country, { Array($0.bytes(Int(country), .code)) }), !code.isEmpty else { return -1 }
        var sole: Int32 = -1
        for (zone, linked) in zones.countryFeatures.enumerated() where linked >= 0 {
            guard withArea(.country, { Self.equalCodes($0.bytes(Int(linked), .code), code) }) ?? false else { continue }
            if sole >= 0 { return -1 }
            sole = Int32(zone)
        }
        return sole
    }

    /// Whether the zone's country is a territory Nominatim has no country of its own for (no entry in
    /// `settings/country_settings.yaml`: Saint-Barthélemy, Réunion, Puerto Rico, Aruba, Hong Kong, Åland, ...): its
    /// `country_osm_grid` gives such a territory its sovereign's code (`fr` for Saint-Barthélemy), so an extract's
    /// point there answers that country, and the territory's zone is the country's own, not another country's
    /// (Gustavia is America/St_Barthelemy, not Europe/Paris).
    func isFoldedTerritory(_ country: Int32) -> Bool {
        guard let nominatim = NominatimCountrySettings.embedded,
            let code = withArea(.country, { String(decoding: $0.bytes(Int(country), .code), as: UTF8.self) }), code.utf8.count == 2
        else { return false }
        return nominatim.countries[code.lowercased()] == nil
    }

    /// In `soleTimeZones`, a country feature that no zone names (`soleTimeZone(ofCountry:zones:)` asks its code).
    static let noZoneOfItsOwn: Int32 = -2

    /// `soleTimeZones` from the zones' country features: the zone of each country that has exactly one, -1 for one
    /// of several zones, `noZoneOfItsOwn` for none.
    static func soleTimeZones(of countryFeatures: [Int32]) -> [Int32] {
        var sole = [Int32](repeating: noZoneOfItsOwn, count: Int(countryFeatures.max() ?? -1) + 1)
        var zoneCount = [Int](repeating: 0, count: sole.count)
        for (zone, country) in countryFeatures.enumerated() where country >= 0 {
            zoneCount[Int(country)] += 1
            sole[Int(country)] = zoneCount[Int(country)] == 1 ? Int32(zone) : -1
        }
        return sole
    }
}
