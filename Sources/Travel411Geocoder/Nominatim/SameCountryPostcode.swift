import Foundation
import Travel411Core
import Travel411Store

/// The postcode of a Nominatim answer with no street or object within reach, from the postcode points: only one
/// the answered country can have. Nominatim computes a place's postcode at import among its own country's postcodes
/// only (`get_nearest_postcode`, `lib-sql/functions/utils.sql`, `country_code = country`); the points carry no
/// country here, so a point whose code does not fit the answered country's `postcode: pattern`
/// (`settings/country_settings.yaml`) is passed over: a point in Monaco never answers France's `06320`.
extension ReverseGeocoder {
    func takeNearestPostcodeOfTheCountry(_ record: inout PlacemarkRecord) {
        guard let settings = NominatimCountrySettings.embedded, record.country >= 0,
            let codeBytes = withArea(.country, { $0.bytes(Int(record.country), .code) }) ?? nil, !codeBytes.isEmpty
        else { return takeNearestPostcode(&record) }
        let country = String(decoding: codeBytes, as: UTF8.self)
        let query = PointIndex.Query(record.location)
        let radius = self.settings(for: record).postcodeRadiusMetres
        if let found = withPoints(
            .postcode, near: record.location, within: radius,
            { points in
                points.index.nearest(to: query, maxChord: PointIndex.chord(metres: radius)) { id in
                    guard let bytes = points.records.bytes(Int(id), 0) else { return false }
                    let code = String(decoding: bytes, as: UTF8.self)
                    return settings.postcode(code, countryCode: country) == code
                }
            }) ?? nil
        {
            record.postcode = Int32(found)
        }
    }
}
