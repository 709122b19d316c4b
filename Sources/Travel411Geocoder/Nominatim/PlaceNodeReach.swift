import Travel411Core
import Travel411Store

/// Beyond the extracts' extent (`OSMAnswerRules.covers`), the rules still hold wherever an extract's place node reaches
/// the point. Where no street, object or polygon answers, Nominatim 5.3's `lookup` falls back on `lookup_country`
/// (`nominatim_api/reverse.py`): the place node of the highest search rank whose `reverse_place_diameter`
/// (`lib-sql/functions/ranking.sql`) reaches the point, answered as itself with its nearest postcode. The extent is
/// that of the extract's features, and a node reaches past it: 1.7-3.7 km north of the São Paulo export's streets, the
/// suburb node Glicério (0.04°) answers with 01514-020, where the extent alone left travel411 naming the country.
/// City, town and village nodes (the city level's), suburbs and hamlets (the suburb level's) and the finer kinds
/// (`FinePlaceNodes`), each within its own reach; which of them answers is the rules' to decide.
extension ReverseGeocoder {
    /// Whether a place node of the extracts reaches `point` (`reversePlaceDiameter` of its search rank, in degrees of
    /// longitude and latitude alike, as PostGIS measures them). `tiles`: the tiles holding or beside the extracts' data
    /// (`OSMAnswerRules.coverageTiles`), nil where the database does not record them.
    func placeNodeReaches(_ point: Coordinate, nearData tiles: DataTiles?) -> Bool {
        // The searches read the point's 0.1° cell and the rings around it that a node's reach needs (two for a city's
        // 0.16°, `PlaceNodeSearch.reachRings`); a node there lies in a data tile, whose neighbours `tiles` holds too, so
        // the point's tile or one beside it is in `tiles`: far from the extracts the first bit answers.
        if let tiles, !tiles.contains(point), !tiles.containsOrBorders(point) { return false }
        let x = point.longitude, y = point.latitude
        if let nodes = suburbNodes, nodes._withUnsafeGuaranteedRef({ Self.anyReaches($0, x: x, y: y) }) { return true }
        if let nodes = lookup.cityNodeSearch(), Self.anyReaches(nodes, x: x, y: y) { return true }
        return lookup.finePlaceNodes()?.anyReaches(x: x, y: y) ?? false
    }

    /// Whether a node of one level's search lies within its reach of (x, y).
    private static func anyReaches(_ search: PlaceNodeSearch, x: Double, y: Double) -> Bool {
        guard !search.isEmpty else { return false }
        var found = false
        search.forEachNode(near: Coordinate(latitude: y, longitude: x)) { node in
            guard !found else { return }
            let dx = node.x - x, dy = node.y - y
            let reach = NominatimPlaceKinds.reversePlaceDiameter(searchRank: node.rank)
            found = dx * dx + dy * dy < reach * reach
        }
        return found
    }
}
