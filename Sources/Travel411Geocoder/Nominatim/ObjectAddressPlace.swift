import Travel411Core
import Travel411Store

/// The lines an answering object's `addr:place` gives its address (`PlacesSchema.ObjectField.placeLines`, found at import
/// by `OSMAddressPlaceParents`): the place parenting it, which Nominatim's `complete_address_details`
/// (`nominatim_api/results.py`) lists after the parent's own address lines.
/// A node carrying a building's address carries its `addr:place` too (`placex_indexing_prepare` copies the building's
/// whole address, and the node is parented by it).
extension ReverseGeocoder {
    /// The lines for the object answering `record`; none when a street answers or no object does.
    func addressPlaceLines(of record: PlacemarkRecord) -> [AddressPlaceLine] {
        guard !record.streetAnswers, let bytes = objectAddressBytes(record, .placeLines), !bytes.isEmpty else { return [] }
        let text = String(decoding: bytes, as: UTF8.self)
        return AddressPlaceLine.lines(text)
    }
}
