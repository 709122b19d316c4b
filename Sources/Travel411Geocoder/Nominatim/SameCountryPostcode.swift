import Foundation
import Travel411Core
import Travel411Store

/// The postcode of a Nominatim answer with no street or object within reach, from the postcode points: only one
/// the answered country can have. Nominatim computes a place's postcode at import among its own country's postcodes
/// only (`get_nearest_postcode`, `lib-sql/functions/utils.sql`, `country_code = country`). A postcode point's
/// country is the country polygon holding it, looked up when the point is a candidate (the points carry no
/// country: this keeps the database's layout), and one whose code does not fit the answered country's
/// `postcode: pattern` (`settings/country_settings.yaml`) is passed over too: a point in Monaco never answers
/// France's `06320`, and a Swiss point by the Rhine never Liechtenstein's `9495`, though both are four digits.
extension ReverseGeocoder {
    /// Measured from `point`, the query's location unless given (an object's node: `decideAsNominatim`).
    func takeNearestPostcodeOfTheCountry(_ record: inout PlacemarkRecord, near point: Coordinate? = nil) {
        guard let settings = NominatimCountrySettings.embedded, record.country >= 0,
            let codeBytes = withArea(.country, { $0.bytes(Int(record.country), .code) }) ?? nil, !codeBytes.isEmpty
        else { return point == nil ? takeNearestPostcodePoint(&record) : () }
        let country = String(decoding: codeBytes, as: UTF8.self)
        let countryBytes = Array(codeBytes)
        let location = point ?? record.location
        let query = PointIndex.Query(location)
        let radius = self.settings(for: record).postcodeRadiusMetres
        if let found = withPoints(
            .postcode, near: location, within: radius,
            { points in
                points.index.nearest(to: query, maxChord: PointIndex.chord(metres: radius)) { id in
                    guard let bytes = points.records.bytes(Int(id), 0) else { return false }
                    let code = String(decoding: bytes, as: UTF8.self)
                    guard settings.postcode(code, countryCode: country) == code else { return false }
                    return points.records.coordinate(Int(id)).map { self.isInCountry($0, countryCode: countryBytes) } ?? true
                }
            }) ?? nil
        {
            record.postcode = Int32(found)
        }
    }

    /// Whether the country polygon holding `coordinate` has the ISO code `countryCode`; true where none holds it
    /// (a point offshore keeps the pattern's test alone).
    func isInCountry(_ coordinate: Coordinate, countryCode: [UInt8]) -> Bool {
        let holder = feature(.country, coordinate.longitude, coordinate.latitude)
        guard holder >= 0 else { return true }
        return withArea(.country, { $0.bytes(Int(holder), .code).elementsEqual(countryCode) }) ?? true
    }
}
