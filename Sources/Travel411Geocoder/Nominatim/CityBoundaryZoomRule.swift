import Synchronization
import Travel411Core
import Travel411Store

extension ReverseGeocoder {
    /// Below street level, a municipality boundary answers only when its search rank is within the zoom's highest
    /// rank, as Nominatim 5.3's area search takes polygons (GPL-2.0; its rules, not its code):
    /// `_lookup_area_address` (`nominatim_api/reverse.py`) takes polygons of `rank_search` up to `max_rank`
    /// (`REVERSE_MAX_RANKS`, `nominatim_api/v1/helpers.py`: 16 at zoom 10, 17 at 11, 18 at 12). A boundary's search
    /// rank is its `admin_level`'s (`settings/address-levels.json`) even where its address rank is another: an
    /// unlinked boundary tagged `place` takes that place's address rank, a linked one its node's (`placex_update`,
    /// `lib-sql/functions/placex_triggers.sql`), neither its search rank. Karachi's Gulshan Town (admin_level 9,
    /// search rank 18, `place=town`: address rank 16) names objects' addresses as a town and answers from zoom 12 on;
    /// at zoom 10 Nominatim answers the country. The point's locality goes with it; the searches for place nodes in
    /// reach follow (`decideMunicipalityOutsideAreas`), as Nominatim's `lookup_country` does.
    func dropCityBoundaryAboveRank(_ record: inout PlacemarkRecord, maximumRank: Int) {
        guard maximumRank < 26, record.cityArea >= 0,
            let rank = citySearchRank(record.cityArea, location: record.location), rank > maximumRank
        else { return }
        record.cityArea = -1
        record.locality = -1
    }

    /// The search rank of the municipality polygon `feature` when it is a boundary (`AreaElement.searchRank`), read
    /// once with its answer's element.
    func citySearchRank(_ feature: Int32, location: Coordinate) -> Int? {
        guard areaFeature(.city, feature, rank: 16, location: location) != nil else { return nil }
        let key = Int64(PlacesSchema.AreaLevel.city.ordinal) << 32 | Int64(feature)
        return areaElements.withLock { $0[key] ?? nil }?.searchRank
    }
}
