import Foundation
import Travel411Core
import Travel411Store

/// The country of a Nominatim answer is its answering object's, not the query point's. Nominatim stores each
/// place's country once, at import, from its centroid (`placex_update` in `lib-sql/functions/placex_triggers.sql`
/// sets `country_code` by `get_country_code`, `lib-sql/functions/utils.sql`: the country boundary holding the
/// centroid, else the smallest `country_osm_grid` piece), and its reverse search answers with the place's row as it
/// is (`nominatim_api/reverse.py` returns the street's or the object's `placex` row with its `country_code`); the
/// address parts are then gathered in that country's partition only (`insert_addresslines`). So at a border a point
/// in Monaco whose nearest building is French answers France, with France's region and commune, and a point in
/// Liechtenstein on a track that runs on into Austria, whose midpoint is Austrian, answers Austria.
///
/// The import stores each street's and each object's country (`PlacesSchema.StreetPostcodeField.country`,
/// `ObjectField.country`, from `OSMCountryOfPoint`: the extract's own country boundaries, the grid, Natural Earth),
/// and a Nominatim answer (`GeocoderSettings.addressOfTheAnswer`: the server, `where --format nominatim`) takes it
/// with the state and the time zone at the object's point; the municipality and suburb are the answer's already
/// (`takeAreasOfTheAnswer`), and those of another country are dropped afterwards (`SameCountryAreas`). Where no
/// street or object answers (an area, a place node, the country alone), the point's country stays, as Nominatim's
/// area search looks for the areas holding the point (`lookup_area`). Every other output keeps the point's country.
extension ReverseGeocoder {
    func takeCountryOfTheAnswer(
        _ record: inout PlacemarkRecord, _ objects: PlacesLookup.LineLevel, _ streets: PlacesLookup.LineLevel, needs: PlacemarkNeeds
    ) {
        guard let (code, point) = answeringCountry(of: record, objects: objects, streets: streets), !code.isEmpty else { return }
        if record.country >= 0, withArea(.country, { Self.equalCodes($0.bytes(Int(record.country), .code), code) }) ?? false { return }
        // The country polygon holding the object's own point, which the import asked too (`OSMCountryOfPoint`); one of
        // another code there (the layers resolve an overlap otherwise) leaves the point's country.
        let holding = feature(.country, point.longitude, point.latitude)
        guard holding >= 0, withArea(.country, { Self.equalCodes($0.bytes(Int(holding), .code), code) }) ?? false else { return }
        record.country = holding
        record.countryFromTerritorialWaters = false
        // The municipality and suburbs of the answer's point that are of another country go, boundaries too (which
        // carry no country of their own: `SameCountryAreas` keeps them): a boundary's country is its centre's, as
        // Nominatim's is its centroid's. A French footway's point in Monaco names no part of Monaco.
        dropAreas(&record, notOf: holding, judgingBoundariesByCentre: true)
        // Its state and time zone are those at its point (Nominatim's address lines hold the place's centroid).
        if needs.contains(.admin) {
            record.admin = feature(.admin, point.longitude, point.latitude)
            if record.admin >= 0 { dropAdminOfAnotherCountry(&record) }
        }
        if needs.contains(.district) { record.district = feature(.district, point.longitude, point.latitude) }
        if needs.contains(.timeZone) {
            record.timeZone = feature(.timezone, point.longitude, point.latitude)
            reconcileTimeZoneAndCountry(&record)
        }
    }

    /// The stored country of the street or object answering, with the point it was decided at (the street's
    /// centroid, the object's point); nil when neither answers or the database stores none.
    private func answeringCountry(
        of record: PlacemarkRecord, objects: PlacesLookup.LineLevel, streets: PlacesLookup.LineLevel
    ) -> (code: [UInt8], point: Coordinate)? {
        if record.object >= 0, !record.streetAnswers {
            guard let code = objects.names.bytes(Int(record.object), PlacesSchema.ObjectField.country.rawValue),
                let point = Self.centre(of: UInt32(record.object), objects: objects)
            else { return nil }
            return (Array(code), point)
        }
        guard record.streetAnswers, record.street >= 0,
            let code = withStreetPostcodes({ $0.bytes(Int(record.street), PlacesSchema.StreetPostcodeField.country.rawValue) }) ?? nil,
            let point = Self.point(streets.names.bytes(Int(record.street), PlacesSchema.StreetField.centroid.rawValue))
        else { return nil }
        return (Array(code), point)
    }
}
