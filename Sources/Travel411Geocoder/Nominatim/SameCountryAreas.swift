import Foundation
import Travel411Core
import Travel411Store

/// The areas of an answer below its country (the municipality, the suburb or city district and the village part,
/// the quarter and neighbourhood) are of the answered country only. Nominatim gathers a place's address areas within its own
/// country's partition (`insert_addresslines` in `lib-sql/functions/placex_triggers.sql` asks `getNearFeatures`,
/// `lib-sql/functions/partition-functions.sql`, of the place's `partition`, one per country), and its reverse search,
/// where no area holds the point, takes place nodes of the point's country only (`lookup_country` in
/// `nominatim_api/reverse.py`, `country_code` among the point's): a Swiss point by the Rhine, where the Liechtenstein
/// extract has no Swiss area, answers Switzerland alone, not "Gamprin-Bendern, Switzerland". Each municipality
/// and suburb drawn around a place node carries its node's country (`OSMLevelMapping`); a boundary, exact where the
/// country polygons may not be, and an area imported before the rule, carry none and stay. The postcode follows the same rule (`SameCountryPostcode.swift`); the
/// embedded data's localities are searched in the point's country already (`ReverseGeocoder+Localities.swift`).
extension ReverseGeocoder {
    func dropAreasOfAnotherCountry(_ record: inout PlacemarkRecord) {
        let country = record.country
        guard country >= 0 else { return }
        dropAreas(&record, notOf: country, judgingBoundariesByCentre: false)
        if record.neighbourhood >= 0,
            let node = neighbourhoods?._withUnsafeGuaranteedRef({ $0.node(record.neighbourhood) }),
            !isCountry(feature(.country, node.x, node.y), sameAs: country)
        {
            record.neighbourhood = -1
        }
        if record.quarter >= 0, let node = lookup.finePlaceNodes()?.node(record.quarter),
            !isCountry(feature(.country, node.x, node.y), sameAs: country)
        {
            record.quarter = -1
        }
    }

    /// Drops the municipality, suburb and village part that are not of `country`. An area of no stored country (a
    /// boundary) stays, unless `byCentre`: then it is of the country polygon holding its centre, as Nominatim's
    /// place is of its centroid's (`CountryOfTheAnswer`).
    func dropAreas(_ record: inout PlacemarkRecord, notOf country: Int32, judgingBoundariesByCentre byCentre: Bool) {
        if record.cityArea >= 0, !isArea(.city, record.cityArea, ofCountry: country, byCentre) { record.cityArea = -1 }
        if record.suburbArea >= 0, !isArea(.suburb, record.suburbArea, ofCountry: country, byCentre) { record.suburbArea = -1 }
        if record.villagePart >= 0, !isArea(.suburb, record.villagePart, ofCountry: country, byCentre) { record.villagePart = -1 }
        if record.suburbBoundaryLine >= 0, !isArea(.suburb, record.suburbBoundaryLine, ofCountry: country, byCentre) {
            record.suburbBoundaryLine = -1
        }
        if record.quarterArea >= 0, !isArea(.suburb, record.quarterArea, ofCountry: country, byCentre) { record.quarterArea = -1 }
        if record.neighbourhoodArea >= 0, !isArea(.suburb, record.neighbourhoodArea, ofCountry: country, byCentre) {
            record.neighbourhoodArea = -1
        }
    }

    /// Whether the polygon's country is `country` (or of its code); for a polygon of no known country, true, or with
    /// `byCentre` whether the country polygon holding its centre is (true when it has no centre).
    @inline(__always)
    func isArea(_ level: PlacesSchema.AreaLevel, _ area: Int32, ofCountry country: Int32, _ byCentre: Bool) -> Bool {
        let own = withArea(level) { $0.countryFeature(of: area) } ?? -1
        if own >= 0 { return isCountry(own, sameAs: country) }
        guard byCentre, let centre = withArea(level, { Self.point($0.bytes(Int(area), .centre)) }) ?? nil else { return true }
        return isCountry(feature(.country, centre.longitude, centre.latitude), sameAs: country)
    }

    /// Whether two country features are one country: the same feature, or two with one ISO code (an extract's own
    /// polygon and the part of it another layer gave); a point in no country polygon is in none other either.
    func isCountry(_ feature: Int32, sameAs country: Int32) -> Bool {
        guard feature >= 0, feature != country else { return true }
        return withArea(.country) { level in
            let own = level.bytes(Int(feature), .code), answered = level.bytes(Int(country), .code)
            return !own.isEmpty && Self.equalCodes(own, answered)
        } ?? true
    }

    /// Two ISO codes alike but for letter case.
    static func equalCodes(_ one: some Collection<UInt8>, _ other: some Collection<UInt8>) -> Bool {
        one.count == other.count && zip(one, other).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }
}
