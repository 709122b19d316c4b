import Foundation
import Travel411Store

extension ReverseGeocoder {
    /// The place node whose tagged postcode a street gives in Nominatim 5.3 (GPL-2.0; its rules, not its code), a
    /// suburb-level feature; nil where the street's stored postcode stands. `insert_addresslines`
    /// (`lib-sql/functions/placex_triggers.sql`) gives a street without its own `addr:postcode` the postcode of the
    /// finest of its address places (`isaddress`) that has one in `location_area`: "Set postcode if we have one", the
    /// highest ranking. A place node's there is its own `postal_code` or `addr:postcode`, or one it inherits from its
    /// own address areas (`placex_update` passes `add_location` the postcode before any `get_nearest_postcode`), and
    /// an object on the street takes the street's (`placex_update`: the parent's `postcode`). The parts the answer
    /// names for the street are those nodes (`PlaceNodeSearch.addressParts`: nearest the street's line, inside its
    /// municipality): a hamlet or suburb, then its village. Sportfeldstrasse (way 100882633), whose address names
    /// Schaanwald (`postal_code=9486`), is 9486 where the nearest postcode point is Nendeln's 9485.
    func placeNodePostcodeOfStreet(_ record: PlacemarkRecord) -> Int32? {
        guard record.street >= 0, record.suburbArea >= 0 || record.villagePart >= 0, let nodes = suburbNodes else { return nil }
        // The street's own tag comes first (`token_get_postcode`).
        let ownField = PlacesSchema.StreetPostcodeField.own.rawValue
        guard withStreetPostcodes({ $0.bytes(Int(record.street), ownField)?.isEmpty ?? true }) ?? true else { return nil }
        return nodes._withUnsafeGuaranteedRef { nodes in
            for feature in [record.suburbArea, record.villagePart] where feature >= 0 && nodes.isNodeArea(feature) {
                if !(withArea(.suburb, { $0.bytes(Int(feature), .taggedPostcode).isEmpty }) ?? true) { return feature }
            }
            return nil
        }
    }
}
