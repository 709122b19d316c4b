import Foundation
import Travel411Core
import Travel411Store

extension ReverseGeocoder {
    /// The municipality of a street's address where no municipality polygon names it, as Nominatim 5.3 guesses it
    /// (GPL-2.0; its rules, not its code): `insert_addresslines` (`lib-sql/functions/placex_triggers.sql`) takes the
    /// town and village nodes whose area (`place_node_fuzzy_area`: ± 4 km for a town, 2 km for a village) the street
    /// passes through (`getNearFeatures`), orders them by their distance from the whole street times their rank's
    /// factor (`NominatimPlaceKinds.guessDistanceWeight`) and names the first. An object on the street has the
    /// street's address (`complete_address_details`, `nominatim_api/results.py`: a guessed place is no area holding
    /// the object's point, so the street's own line comes first). The node areas of the city level hold a point
    /// nearest to their node, which for a street's point is not the node nearest to the street: Euben, a street
    /// between Röthelbach and Weiherhaus (north of Bayreuth), is Weiherhaus's in Nominatim, and its point nearest the
    /// query lay in Röthelbach's area.
    ///
    /// Only where the municipalities around the answer are node areas (`city`, at the answer's point, and
    /// `ownCity`, at the street's centroid): a boundary the street passes through comes before every guess. The
    /// nodes are searched within a 0.1° cell of the street's extent (`forEachNode(near:along:_:)`), so a city node
    /// (± 15 km) farther than that is not found. nil when no node's area meets the street.
    func townNodeOfStreet(
        _ street: UInt32, near answer: Coordinate, city: Int32, ownCity: Int32, extent: BoundingBox?, streets: PlacesLookup.LineLevel
    ) -> Int32? {
        guard let nodes = lookup.cityNodeSearch(), !nodes.isEmpty,
            city < 0 || nodes.isNodeArea(city), ownCity < 0 || nodes.isNodeArea(ownCity)
        else { return nil }
        return nodes.nearestGuess(near: answer, along: extent) { node, box in
            Self.distance(ofLine: street, from: (node.x, node.y), within: box, streets: streets, extent: extent)
        }
    }
}

extension ReverseGeocoder {
    /// The municipality polygon a street runs through where neither its centroid nor its answer point lies in any
    /// municipality area (`city`, `ownCity`: -1): `insert_addresslines` orders a street's address places by rank, then
    /// polygons before guessed nodes, then by distance from the centroid (`getNearFeatures`: every polygon the whole
    /// line enters), so a boundary the street only crosses names it before any town node. Its segments within its
    /// extent are tried at their ends and middles; of the polygons found, the one nearest the centroid. Rheindamm,
    /// outside Ruggell's boundary at the query and at its centroid, runs into it. A street too long to gather
    /// (`gatheredCells`, `gatheredSegments`) is walked too: Youssoufia's roads, kept whole in a Moroccan
    /// export (way 136599117, 30 km), enter its boundary from far outside it. nil when none is found or the street's
    /// extent spans more than `walkedCells`.
    /// Not where a town node's area holds the street: Andorra's shops on Avinguda Carlemany, in les Escaldes's area
    /// inside its parish, are les Escaldes's in Nominatim's answers, not Andorra la Vella's, whose boundary the avenue
    /// enters (5 of the 300 zoom-18 points there took Andorra la Vella when node areas were overruled too).
    func municipalityOnStreet(
        _ street: UInt32, city: Int32, ownCity: Int32, centroid: Coordinate?, extent: BoundingBox?, streets: PlacesLookup.LineLevel
    ) -> Int32? {
        let nodes = lookup.cityNodeSearch()
        func isNode(_ feature: Int32) -> Bool { nodes?.isNodeArea(feature) ?? false }
        guard city < 0, ownCity < 0, let extent else { return nil }
        let box = Self.widenedPastRounding(extent)
        let from = centroid ?? Coordinate(latitude: (extent.minY + extent.maxY) / 2, longitude: (extent.minX + extent.maxX) / 2)
        var nearest = NearestArea(from: from)
        func area(_ x: Double, _ y: Double) -> Int32? {
            let found = feature(.city, x, y)
            return found >= 0 && !isNode(found) ? found : nil
        }
        // Walked, not gathered: the same segments in the same order as `segments(ofLine:)` lists them, in constant
        // memory; only the cells the street occupies are read.
        guard Self.cellCount(of: box) <= Self.walkedCells else { return nil }
        streets.index.forEachSegment(ofLine: street, in: box) { ax, ay, bx, by in nearest.visit(ax, ay, bx, by, area: area) }
        return nearest.feature
    }

    /// Of the areas a street's segments pass through (`area(x, y)` at each segment's ends and middle, nil outside
    /// every one that counts), the one whose point so found is nearest `from`; the first found of equal distance.
    /// Nominatim orders the polygons by their distance from the street's centroid (`getNearFeatures`); the nearest
    /// point found inside each stands for it (never nearer than the polygon itself).
    struct NearestArea {
        let from: Coordinate
        /// Whether only the segments' middles are asked: a segment's end may be a corner the line only touches.
        let middlesOnly: Bool
        private(set) var feature: Int32? = nil
        private var distance = Double.infinity
        /// The point tried last: a segment's start is mostly the previous one's end, asked once.
        private var last: (x: Double, y: Double) = (.nan, .nan)

        init(from: Coordinate, middlesOnly: Bool = false) {
            self.from = from
            self.middlesOnly = middlesOnly
        }

        mutating func visit(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, area: (Double, Double) -> Int32?) {
            if !middlesOnly { tryPoint(ax, ay, area) }
            tryPoint((ax + bx) / 2, (ay + by) / 2, area)
            if !middlesOnly { tryPoint(bx, by, area) }
        }

        private mutating func tryPoint(_ x: Double, _ y: Double, _ area: (Double, Double) -> Int32?) {
            if x == last.x && y == last.y { return }
            last = (x, y)
            let d = (x - from.longitude) * (x - from.longitude) + (y - from.latitude) * (y - from.latitude)
            // Only a nearer point can change the answer: the area lookup is skipped for the others.
            guard d < distance, let found = area(x, y) else { return }
            distance = d
            feature = found
        }
    }

    /// At most this many 0.0025° cells of a street's extent are walked for the polygons it enters (0.64° square,
    /// 70 km): a 30 km road spans about 5,000; the cells without the street cost a bit test each.
    static let walkedCells = 65_536

    /// The 0.0025° street cells `box` touches.
    static func cellCount(of box: BoundingBox) -> Int {
        let grid = TileGrid.streets
        return (grid.cellColumn(box.maxX) - grid.cellColumn(box.minX) + 1) * (grid.cellRow(box.maxY) - grid.cellRow(box.minY) + 1)
    }

    /// `NearestArea` over gathered segments.
    static func nearestArea(
        on segments: LineSegments, to from: Coordinate, middlesOnly: Bool = false, area: (Double, Double) -> Int32?
    ) -> Int32? {
        let c = segments.coordinates
        var nearest = NearestArea(from: from, middlesOnly: middlesOnly)
        for i in stride(from: 0, to: c.count, by: 4) { nearest.visit(c[i], c[i + 1], c[i + 2], c[i + 3], area: area) }
        return nearest.feature
    }

    /// Where no street or object answers and no municipality area holds the point, Nominatim 5.3's reverse search
    /// answers the place node of the finest search rank within the zoom's ranks and within its reach
    /// (`lookup_country` and `_lookup_area_address` in `nominatim_api/reverse.py`: `rank_search <= max_rank`,
    /// `IsBelowReverseDistance`, finest rank then nearest), and a town or village node so found names the
    /// municipality (`PlaceNodeSearch.answer`): 2.2 km south of Neustift an der Donau's node (Krems), beyond its
    /// ± 2 km area but within a village's 0.04°, zooms 14 and 18 answer Neustift. Every node, whatever boundary its
    /// area was cut to: the node answers, not its area (Ransol, of Canillo, 0.038° from a point in no parish of
    /// Andorra's cut, where the uncut nodes alone gave Encamp's town node).
    func takeTownNodeInReach(_ record: inout PlacemarkRecord, maximumRank: Int) {
        guard let nodes = lookup.cityNodeSearch(), !nodes.isEmpty else { return }
        let point = record.location
        if let found = nodes.answer(x: point.longitude, y: point.latitude, maximumRank: maximumRank, municipality: -1, everyArea: true) {
            record.cityArea = found
        }
    }

    /// The same search where the municipality holding the point is a town or city node's area (travel411's, no
    /// polygon of Nominatim's), where no suburb or finer node answers: Nominatim's search finds no polygon and answers
    /// the node of the finest search rank within reach, where `place_node_fuzzy_area`'s weighted distance chose the
    /// town for the address. 1.1 km from the village node Meritxell (19), inside Encamp's town area (18), zoom 13
    /// answers Meritxell; zoom 12, whose rank stops at 18, Encamp; at zoom 14, 2.4 km from Sociteni (19) and 5.6 km
    /// from Ialoveni's town node (18), Sociteni. At zoom 18 too, where no street or object answers (`lookup_country`
    /// orders by search rank at every zoom): 0.04° from Vila Nova de Gaia's town node, inside Porto's city area, Gaia.
    /// Only a node of the point's country.
    func takeFinerNodeOverTownArea(_ record: inout PlacemarkRecord, maximumRank: Int) {
        guard record.finePlace < 0, record.cityArea >= 0, let nodes = lookup.cityNodeSearch(),
            let town = nodes.node(ofFeature: record.cityArea), town.boundaryBelow < 0
        else { return }
        let point = record.location
        guard let found = nodes.answer(x: point.longitude, y: point.latitude, maximumRank: maximumRank, municipality: -1, everyArea: true),
            let node = nodes.node(ofFeature: found), node.rank > town.rank,
            record.country < 0 || isCountry(feature(.country, node.x, node.y), sameAs: record.country)
        else { return }
        record.cityArea = found
    }

    /// The same search inside a coarser municipality that town and village nodes name parts of (Andorra's parishes,
    /// rank 14: `OSMSubpartNodes`): where no street, object or finer place node answers, `_lookup_area_address` finds
    /// the parish holding the point, then the place nodes inside it of a finer search rank, the finest rank within
    /// reach first, then the nearest: 1.6 km from Prats's village node, inside the box of Canillo's town node,
    /// Nominatim answers Prats (19 is finer than a town's 18); 2.5 km from Segudet, beyond its box, Segudet.
    func takeTownNodeInsideParish(_ record: inout PlacemarkRecord, maximumRank: Int) {
        guard record.cityArea >= 0, let nodes = lookup.cityNodeSearch(), !nodes.isEmpty else { return }
        // The parish: the point's municipality, or the one under the node area holding the point.
        let parish: Int32
        if let node = nodes.node(ofFeature: record.cityArea) {
            guard node.boundaryBelow >= 0 else { return }
            parish = node.boundaryBelow
        } else {
            parish = record.cityArea
        }
        let point = record.location
        if let found = nodes.answer(x: point.longitude, y: point.latitude, maximumRank: maximumRank, municipality: -1, boundary: parish) {
            record.cityArea = found
        }
    }
}

extension PlaceNodeSearch {
    /// Of the nodes near `point`, the one whose weighted distance (`NominatimPlaceKinds.guessDistanceWeight` at
    /// address rank 16) is least; `distance(node, halfWidthDegrees)` is nil for a node whose box the street misses.
    func nearestGuess(
        near point: Coordinate, along extent: BoundingBox? = nil, distance: (Node, (x: Double, y: Double)) -> Double?
    ) -> Int32? {
        var best: (weighted: Double, feature: Int32)? = nil
        forEachNode(near: point, along: extent) { node in
            guard let box = Self.boxDegrees(of: node), let degrees = distance(node, box) else { return }
            let weighted = degrees * NominatimPlaceKinds.guessDistanceWeight(addressRank: 16, searchRank: node.rank)
            if let known = best, known.weighted < weighted || (known.weighted == weighted && known.feature < node.feature) { return }
            best = (weighted, node.feature)
        }
        return best?.feature
    }
}
