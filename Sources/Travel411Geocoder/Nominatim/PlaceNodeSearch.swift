import Foundation
import Travel411Core
import Travel411Store

/// Nominatim's answer between the street and the municipality (zooms 13-15) where an extract draws its
/// suburbs, hamlets and village parts as place nodes only: of the nodes inside the municipality holding
/// the point, ranked above it and no finer than the zoom allows, the finest kind within its reach
/// (`reverse_place_diameter`: 0.04° for a suburb or village, 0.02° for a hamlet, in degrees of longitude
/// and latitude alike, as PostGIS measures them), the nearest of that kind. The node cells drawn at import
/// (± 2 km, ± 1 km) answer the streets' addresses; at these zooms Nominatim reaches farther and prefers a
/// hamlet to a suburb nearer by: Kouvola's zoom-14 answers agreed at 56 % with the cells alone.
final class PlaceNodeSearch: Sendable {
    typealias Node = PlaceNode

    /// Read by tile as the searches touch them (`PlaceNodePages`).
    private let pages: PlaceNodePages
    /// The rings of 0.1° cells around a point's that hold every node reaching it: a city node (search rank 16, a
    /// capital's 15) reaches 0.16° (`reverse_place_diameter`, lib-sql/functions/ranking.sql), so the city level's
    /// search reads two; the suburb level's finest reach is 0.04°, one.
    private let reachRings: Int

    init(pages: PlaceNodePages, reachRings: Int = 1) {
        self.pages = pages
        self.reachRings = reachRings
    }

    var isEmpty: Bool { pages.isEmpty }

    /// The suburb boundary under a suburb node's area cut to it, which answers at zooms 13-15: Nominatim's area
    /// search takes a place node inside a polygon only when it is of a finer search rank than the polygon
    /// (`_lookup_area_address`, `nominatim_api/reverse.py`), and a suburb node moved below a boundary is not.
    func boundaryBelow(_ feature: Int32) -> Int32? {
        guard let node = pages.node(ofFeature: feature), node.boundaryBelow >= 0 else { return nil }
        return node.boundaryBelow
    }

    /// Whether a suburb-level feature is one of the nodes' areas (not a polygon of the extract).
    func isNodeArea(_ feature: Int32) -> Bool { pages.node(ofFeature: feature) != nil }

    /// The node a suburb-level feature was made from; nil for a polygon of the extract.
    func node(ofFeature feature: Int32) -> Node? { pages.node(ofFeature: feature) }

    /// Every node in the cells that hold every node reaching `point` (`reachRings`, `PlaceNodePages`).
    func forEachNode(near point: Coordinate, _ body: (Node) -> Void) {
        pages.forEach(near: point.longitude, point.latitude, rings: reachRings, body)
    }

    /// Every node within a cell of a street's extent: Nominatim measures a street's address over its whole line
    /// (`getNearFeatures` in `lib-sql/functions/partition-functions.sql` takes every place whose area the line meets),
    /// so a node beside one end names the street at its other end too: Neustift an der Donau and Weinzierl name the
    /// whole Treppelweg, 15 km along the Danube. Within a cell of `point` where the street has no extent or spans
    /// more than `maxStreetCells` cells.
    func forEachNode(near point: Coordinate, along extent: BoundingBox?, _ body: (Node) -> Void) {
        if let extent, pages.forEach(around: extent, maxCells: Self.maxStreetCells, body) { return }
        pages.forEach(near: point.longitude, point.latitude, body)
    }

    /// The most 0.1° cells a street's node search reads (a street 1.4° long); a longer one searches near its point.
    static let maxStreetCells = 256

    /// Whether a point lies in the box of the node a suburb-level feature was made from; true for a feature
    /// made from none (a polygon). Nominatim names a finer place node only inside it (`current_node_area`).
    func boxHolds(_ feature: Int32, x: Double, y: Double) -> Bool {
        guard let node = pages.node(ofFeature: feature) else { return true }
        guard let box = Self.boxDegrees(of: node) else { return true }
        return abs(x - node.x) <= box.x && abs(y - node.y) <= box.y
    }

    /// The suburb-level feature Nominatim answers with at `maximumRank`, nil when no node reaches the point.
    /// `municipality` (-1 for none) restricts the nodes to those inside it. `boundary` (-1 for none) takes the
    /// nodes whose area was cut to that boundary (`boundaryBelow`) in place of those whose area was not;
    /// `everyArea`, the nodes whatever their area was cut to.
    func answer(x: Double, y: Double, maximumRank: Int, municipality: Int32, boundary: Int32 = -1, everyArea: Bool = false) -> Int32? {
        var best: (rank: Int, distanceSquared: Double, feature: Int32)? = nil
        pages.forEach(near: x, y, rings: reachRings) { node in
            // A suburb node's area cut to its boundary answers through its whole area, the same node's other feature.
            guard node.rank <= maximumRank, municipality < 0 || node.municipality == municipality,
                everyArea || (boundary < 0 ? node.boundaryBelow < 0 : node.boundaryBelow == boundary)
            else { return }
            let dx = node.x - x, dy = node.y - y
            let distanceSquared = dx * dx + dy * dy
            let reach = NominatimPlaceKinds.reversePlaceDiameter(searchRank: node.rank)
            guard distanceSquared < reach * reach else { return }
            if let known = best,
                known.rank > node.rank
                    || (known.rank == node.rank
                        && (known.distanceSquared < distanceSquared
                            || (known.distanceSquared == distanceSquared && known.feature < node.feature)))
            {
                return
            }
            best = (node.rank, distanceSquared, node.feature)
        }
        return best?.feature
    }

    /// Whether a node may name a part of `municipality` (-1: any): it lies inside it, or, where the municipality is
    /// the area of a town or village node (`townNode`), inside that node's box. Nominatim's `insert_addresslines`
    /// keeps a guessed place in the address when `current_node_area`, the `place_node_fuzzy_area` of the guessed
    /// place named before it, holds its centroid: Centro Histórico, Porto's suburb node, lies in the ± 4 km box of
    /// Vila Nova de Gaia's town node and so names Gaia's streets across the river. A guessed place outside
    /// `current_boundary`, the polygon named before, is skipped: where the town node's area is cut to a municipality
    /// boundary (`boundaryBelow`, Andorra's parishes), the node must lie in that boundary too (`cityNodes` gives the
    /// boundary of a town node's area).
    static func names(_ node: Node, partOf municipality: Int32, townNode: Node?, cityNodes: PlaceNodeSearch?) -> Bool {
        if municipality < 0 || node.municipality == municipality { return true }
        guard let townNode, let box = boxDegrees(of: townNode), abs(node.x - townNode.x) <= box.x, abs(node.y - townNode.y) <= box.y
        else { return false }
        guard townNode.boundaryBelow >= 0 else { return true }
        return node.municipality == townNode.boundaryBelow
            || cityNodes?.node(ofFeature: node.municipality)?.boundaryBelow == townNode.boundaryBelow
    }

    /// The parts a street's address names, as Nominatim's `insert_addresslines` picks them among place nodes:
    /// of the nodes naming parts of the street's own municipality (`names(_:partOf:townNode:cityNodes:)`) whose box
    /// (`place_node_fuzzy_area`: ± 4 km for a town, 2 km for a village or suburb, 1 km for a hamlet) the street
    /// passes through, the one nearest the street,
    /// once for the village parts and once for the hamlets and suburbs. (Keeping a hamlet only inside the
    /// village's box, as `current_node_area` reads, lost Steg beside Rotenboden, which Nominatim names.)
    /// `distance(node, halfWidthDegrees)` is the street's distance from the node in degrees when the street
    /// passes through the box, nil otherwise. Candidates lie within a 0.1° cell of the street's `extent`
    /// (`forEachNode(near:along:_:)`). With `boundary` (a suburb
    /// boundary, `suburbBoundary(at:nodes:)`), only the nodes inside it, whose areas were cut to it, are candidates.
    func addressParts(
        near point: Coordinate, along extent: BoundingBox? = nil, municipality: Int32, townNode: Node? = nil,
        cityNodes: PlaceNodeSearch? = nil, boundary: Int32 = -1, distance: (Node, (x: Double, y: Double)) -> Double?
    ) -> (part: Int32?, village: Int32?) {
        var part = Choice(), village = Choice()
        // A node outside a guessed town's box (`current_node_area`) is kept but not the address line
        // (`insert_addresslines`); Nominatim's answer takes the first line of each rank (`complete_address_details`,
        // `nominatim_api/results.py`: `isaddress` first, then the greatest distance), so it names the part where no node
        // inside the box does: Weinzierl, Krems's suburb, on Neustift an der Donau's Treppelweg.
        let guessedTown = townNode.map { $0.boundaryBelow < 0 } ?? false
        forEachNode(near: point, along: extent) { node in
            guard boundary < 0 || node.boundaryBelow == boundary else { return }
            let named = Self.names(node, partOf: municipality, townNode: townNode, cityNodes: cityNodes)
            guard named || guessedTown, let box = Self.boxDegrees(of: node), let degrees = distance(node, box) else { return }
            if node.isVillage {
                village.offer(degrees, node.feature, inTownBox: named)
            } else {
                part.offer(degrees, node.feature, inTownBox: named)
            }
        }
        return (part.feature, village.feature)
    }

    /// The address line of one rank among the nodes offered: the nearest inside the guessed town's box, else the
    /// farthest outside it (ties to the lower feature).
    private struct Choice {
        var inside: (distance: Double, feature: Int32)? = nil
        var outside: (distance: Double, feature: Int32)? = nil

        mutating func offer(_ degrees: Double, _ feature: Int32, inTownBox: Bool) {
            if inTownBox {
                if let known = inside, known.distance < degrees || (known.distance == degrees && known.feature < feature) { return }
                inside = (degrees, feature)
            } else {
                if let known = outside, known.distance > degrees || (known.distance == degrees && known.feature < feature) { return }
                outside = (degrees, feature)
            }
        }

        var feature: Int32? { inside?.feature ?? outside?.feature }
    }

    /// A node's box half-widths in degrees of longitude and latitude (`place_node_fuzzy_area`).
    static func boxDegrees(of node: Node) -> (x: Double, y: Double)? { boxDegrees(searchRank: node.rank, latitude: node.y) }

    /// The half-widths of the box `place_node_fuzzy_area` (lib-sql/functions/utils.sql) gives a place node of
    /// `searchRank` at `latitude`: ± 15 km for a city, 4 km for a town, 2 km for a village, 1 km for a hamlet or
    /// quarter, 500 m finer.
    static func boxDegrees(searchRank: Int, latitude: Double) -> (x: Double, y: Double) {
        let metres: Double
        switch searchRank {
        case ...16: metres = 15_000
        case 17...18: metres = 4_000
        case 19: metres = 2_000
        case 20: metres = 1_000
        default: metres = 500
        }
        let y = metres / 111_320
        return (y / max(cos(latitude * .pi / 180), 0.01), y)
    }
}
