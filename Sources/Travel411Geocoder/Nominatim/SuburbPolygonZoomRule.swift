import Travel411Core
import Travel411Store

extension ReverseGeocoder {
    /// Below street level, a place polygon of the suburb level answers only when its type's search rank is within
    /// the zoom's highest rank, as Nominatim 5.3's area search takes polygons (GPL-2.0; its rules, not its code):
    /// `_lookup_area_address` (`nominatim_api/reverse.py`) takes polygons of `rank_search` up to `max_rank`
    /// (`REVERSE_MAX_RANKS`, `nominatim_api/v1/helpers.py`: 22 at zoom 14), the type's search rank in
    /// `settings/address-levels.json` (a `neighbourhood` 24, a `quarter` 20). Cuenca's, Karachi's and Lima's
    /// neighbourhood polygons name the address of what they hold at zoom 18 and answer nothing at zoom 14, where the
    /// suburb node in reach or the municipality does; the place nodes' searches that follow decide the point then.
    func dropSuburbPolygonAboveRank(_ record: inout PlacemarkRecord, maximumRank: Int) {
        guard record.suburbArea >= 0, !suburbPolygonAnswers(record.suburbArea, at: record.location, maximumRank: maximumRank) else {
            return
        }
        record.suburbArea = -1
    }

    /// Whether the suburb-level polygon `feature` answers at `maximumRank`: a boundary keeps its admin_level's rank
    /// (`OSMLevelMapping.withFinerBoundaries`) and a place node's area its node's rules (`chooseSuburbNodeAsNominatim`);
    /// a place polygon, when its type's search rank (`suburbPolygonRank`) is within it. Bishkek's suburb node Кок-Жар
    /// answers at zoom 14 inside the neighbourhood polygon Кок-Жар микрорайон that its area is cut to.
    func suburbPolygonAnswers(_ feature: Int32, at location: Coordinate, maximumRank: Int) -> Bool {
        // No place type of the suburb level has a search rank above 25 (its address rank is 4-25): from zoom 15 on,
        // every one answers, and the batch's zoom-18 answers ask nothing more.
        guard maximumRank < 25,
            let polygon = areaFeature(.suburb, feature, rank: Self.suburbAreaRank, location: location),
            polygon.elementType != .node, polygon.category == "place"
        else { return true }
        return polygon.rank <= maximumRank
    }
}
