import Travel411Core
import Travel411Store

/// The municipality an answering object's own `addr:city` names (`PlacesSchema.ObjectField.city`, found at import by
/// `OSMAddressCity` as Nominatim's `get_address_place` finds it), which Nominatim puts before its street's
/// (`complete_address_details`, `nominatim_api/results.py`: per rank the object's own address lines first): the
/// buildings of the University of British Columbia, a municipality of its own, with `addr:city=Vancouver` answer
/// Vancouver. A node carrying a building's address carries its `addr:city` too (`placex_indexing_prepare` copies the
/// building's whole address).
extension ReverseGeocoder {
    /// The city level's feature its `addr:city` names for the object answering `record`; nil when a street answers,
    /// no object does, or it names none.
    func addressCity(of record: PlacemarkRecord, objects: PlacesLookup.LineLevel) -> Int32? {
        guard !record.streetAnswers, record.object >= 0 else { return nil }
        let carrier = record.addressObject >= 0 ? record.addressObject : record.object
        return Self.number(objects.names.bytes(Int(carrier), PlacesSchema.ObjectField.city.rawValue)).flatMap { Int32(exactly: $0) }
    }
}
