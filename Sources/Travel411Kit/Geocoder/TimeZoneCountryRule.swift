import Foundation

extension ReverseGeocoder {
    /// The time zone and the country never contradict each other: where the point's zone belongs to another
    /// country (tzdata's zone.tab, as `TerritoryAssignment` reads it), the finer of the two borders decides. An
    /// OpenStreetMap extract's country boundary (the point's or the zone's country's) is finer than the zones
    /// (simplified to 0.002°): the country stays and takes its own zone when it has only one (a Ruggell street by the Rhine: Liechtenstein,
    /// Europe/Vaduz, not Europe/Zurich). Natural Earth's 1:10m countries are coarser than the zones, which follow
    /// OpenStreetMap's borders, enclaves included: the zone's country answers (Baarle-Hertog's Belgian
    /// enclaves inside Baarle-Nassau: Belgium with Europe/Brussels, not the Netherlands).
    func reconcileTimeZoneAndCountry(_ record: inout PlacemarkRecord) {
        guard record.country >= 0, record.timeZone >= 0, let zones = lookup.area(.timezone) else { return }
        let zoneCountry = zones.countryFeature(of: record.timeZone)
        guard zoneCountry >= 0, zoneCountry != record.country else { return }
        // Either country drawn by the extract: its border says on which side the point lies.
        let extractDrawn = [record.country, zoneCountry].contains { lookup.osmElement(ofArea: .country, feature: Int($0)) != nil }
        guard extractDrawn else {
            record.country = zoneCountry
            return
        }
        let own = zones.countryFeatures.indices.filter { zones.countryFeatures[$0] == record.country }
        if own.count == 1 { record.timeZone = Int32(own[0]) }
    }
}
