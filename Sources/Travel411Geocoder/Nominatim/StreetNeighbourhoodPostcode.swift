import Foundation
import Travel411Store

extension ReverseGeocoder {
    /// The tagged postcode of the neighbourhood node a street's address names, which the street gives in Nominatim 5.3
    /// (GPL-2.0; its rules, not its code) when it has none of its own; nil otherwise. `insert_addresslines`
    /// (`lib-sql/functions/placex_triggers.sql`) walks a street's address places coarsest first and keeps the postcode
    /// of the last one that has one, so the finest wins; a neighbourhood node (search rank 24) is in `location_area`
    /// with its own `postal_code` or `addr:postcode` (`placex_update` calls `add_location` up to search rank 25), and
    /// it is finer than every suburb, hamlet or village part (`placeNodePostcodeOfStreet`). An object on the street
    /// takes the street's (`placex_update`: the parent's `postcode`). Makati's Legazpi (node 314636269,
    /// `postal_code=1229`) gives 1229 to the streets it names that carry no `postal_code` of their own, where the
    /// nearest postcode point was 1200, 1223 or 1231. The value is written in the answered country's form and dropped
    /// when it is none of its postcodes (`clean-postcodes`, `settings/country_settings.yaml`).
    func neighbourhoodPostcodeOfStreet(_ record: PlacemarkRecord) -> String? {
        guard record.street >= 0, record.neighbourhood >= 0,
            let written = neighbourhoods?._withUnsafeGuaranteedRef({ $0.node(record.neighbourhood)?.postcode })
        else { return nil }
        // The street's own tag comes first (`token_get_postcode`).
        let ownField = PlacesSchema.StreetPostcodeField.own.rawValue
        guard withStreetPostcodes({ $0.bytes(Int(record.street), ownField)?.isEmpty ?? true }) ?? true else { return nil }
        let country = record.country >= 0 ? withArea(.country, { $0.bytes(Int(record.country), .code) }) ?? nil : nil
        guard let code = country.map({ String(decoding: $0, as: UTF8.self) }), !code.isEmpty else { return nil }
        return NominatimCountrySettings.embedded?.postcode(written, countryCode: code)
    }
}
