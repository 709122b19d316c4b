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
            polygon.elementType != .node, polygon.category == "place" || polygon.category == "landuse"
        else { return true }
        return polygon.rank <= maximumRank
    }

    /// The suburb level's answer as Nominatim's area search finds it (`_lookup_area_address`, nominatim_api/reverse.py
    /// 5.3): the polygon holding the point whose search rank (`suburbPolygonRank`) is within the zoom's, a place node's
    /// area counting as the polygon it is cut to; and before it, a place node inside it of a higher search rank, up to
    /// the zoom's, within its reach (the second query: `rank_search >` the polygon's, `ST_Contains`,
    /// `IsBelowReverseDistance`), the highest rank first, then the nearest. nil where no such polygon holds the point:
    /// the node rules decide then. Bishkek's `place=suburb` way Кок-Жар (19) answers its points at zoom 13 itself,
    /// before the suburb node Кок-Жар inside it; Ho Chi Minh City's admin_level 9 Khu phố 11 (18) gives way to the
    /// suburb node Tân Định inside it at zooms 13 and 14.
    func suburbPolygonAsNominatim(_ record: PlacemarkRecord, search: PlaceNodeSearch, maximumRank: Int) -> Int32? {
        guard record.suburbArea >= 0,
            let polygon = search.isNodeArea(record.suburbArea) ? search.boundaryBelow(record.suburbArea) : record.suburbArea,
            let rank = areaFeature(.suburb, polygon, rank: Self.suburbAreaRank, location: record.location)?.rank, rank <= maximumRank
        else { return nil }
        let x = record.location.longitude, y = record.location.latitude
        var best: (rank: Int, distanceSquared: Double, feature: Int32)?
        search.forEachNode(near: record.location) { node in
            guard node.boundaryBelow == polygon, node.rank > rank, node.rank <= maximumRank else { return }
            let dx = node.x - x, dy = node.y - y
            let distanceSquared = dx * dx + dy * dy, reach = NominatimPlaceKinds.reversePlaceDiameter(searchRank: node.rank)
            guard distanceSquared < reach * reach,
                best.map({ ($0.rank, -$0.distanceSquared, -$0.feature) < (node.rank, -distanceSquared, -node.feature) }) ?? true
            else { return }
            // A node's area is cut to each finer boundary it overlaps too; the polygon must hold the node itself.
            guard suburbPolygon(polygon, holdsX: node.x, y: node.y, search: search) else { return }
            best = (node.rank, distanceSquared, node.feature)
        }
        return best?.feature ?? polygon
    }

    /// Whether the suburb polygon `polygon` holds (x, y) (`ST_Contains` of `_lookup_area_address`'s second query): the
    /// suburb level's feature there is the polygon, or a place node's area cut to it.
    func suburbPolygon(_ polygon: Int32, holdsX x: Double, y: Double, search: PlaceNodeSearch?) -> Bool {
        let holder = feature(.suburb, x, y)
        return holder == polygon || search?.boundaryBelow(holder) == polygon
    }
}
