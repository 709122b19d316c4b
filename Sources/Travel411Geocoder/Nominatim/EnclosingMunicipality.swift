import Travel411Store

extension ReverseGeocoder {
    /// The municipality boundary of a coarser rank under the point's municipality (its `code`: `OSMSubpartNodes`,
    /// `withTownNodes`), which Nominatim 5.3 lists as an address line of its own after the finer one: the place's
    /// address lines are every polygon holding it (`insert_addresslines`, lib-sql/functions/placex_triggers.sql) and
    /// `_write_typed_address` keys each by its label (`municipality` for ranks 14-15). Andorra's parishes around their
    /// villages ("Sornàs, Ordino"); a French commune inside its arrondissement (admin_level 7, rank 14). Where the
    /// point's municipality is that boundary itself (zoom 10, `dropCityNodeAboveRank`), none.
    func enclosingMunicipality(of record: PlacemarkRecord) -> AnsweringFeature? {
        guard record.cityArea >= 0, let below = Self.number(withArea(.city) { $0.bytes(Int(record.cityArea), .code) }) else {
            return nil
        }
        return areaFeature(.city, Int32(truncatingIfNeeded: below), rank: 14, location: record.location)
    }
}
