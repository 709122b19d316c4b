import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM

/// Areas for place nodes, as Nominatim gives them when no polygon names a town or a suburb: each node stands
/// for a box around it (± 15 km for a city, 4 km a town, 2 km a village or suburb), and a point whose box
/// holds several belongs to the nearest node, distances taken in degrees of longitude and latitude alike
/// (Nominatim's PostGIS distances on EPSG:4326). So a node's area is its box cut by the bisectors with its
/// neighbours, in degree space: a box-bounded Voronoi cell. (Where boxes of different sizes overlap, the
/// cell of the smaller is cut as if the larger one reached everywhere: a small difference at the edges.)
///
/// Distances are weighted as `insert_addresslines` (Nominatim 5.3, `lib-sql/functions/placex_triggers.sql`,
/// GPL-2.0; its rule, not its code) orders the guessed places of one address rank: `distance ×` a factor of
/// the node's search rank (`distanceWeight`), so a city wins over a town twice as near. Where two weights
/// differ, the heavier node wins inside a disc (an Apollonius circle) around it; its cell is cut to that disc,
/// and the heavier cells come first, as the first polygon of a level holding a point answers.
enum OSMPlaceNodeAreas {
    struct Node {
        var name: String
        var type: String
        var point: Point2D
        var layer: String
        var fid: Int64
        /// `capital=yes`: Nominatim searches it one rank higher (`compute_place_rank`).
        var isCapital = false
        /// The factor its distances are multiplied by (`distanceWeight`); 1 for all but towns and cities.
        var weight: Double = 1
        /// Its own `postal_code` or `addr:postcode`, as written: an unlinked place's own postcode, which Nominatim keeps
        /// for its area (`token_get_postcode` in `placex_update`) and a place inside inherits (Nendeln's 9485).
        var postcode: String? = nil
    }

    /// The factor `insert_addresslines` multiplies a guessed place's distance by (`NominatimPlaceKinds`).
    static func distanceWeight(addressRank: Int, searchRank: Int) -> Double {
        NominatimPlaceKinds.guessDistanceWeight(addressRank: addressRank, searchRank: searchRank)
    }

    /// Nominatim's `place_node_fuzzy_area` by the search rank of each place type.
    static func halfWidthMetres(townType type: String) -> Double? {
        switch type {
        case "city": return 15_000
        case "town": return 4_000
        case "village": return 2_000
        default: return nil
        }
    }

    /// A hamlet is a part of its municipality as a suburb is (Nominatim's address rank 20 for both); so is a
    /// village or town inside a municipality that is not its own (`OSMLevelMapping`).
    static func halfWidthMetres(suburbType type: String) -> Double? {
        switch type {
        case "borough", "town": return 4_000
        case "suburb", "village": return 2_000
        case "hamlet": return 1_000
        default: return nil
        }
    }

    /// Each node's cell, the heaviest weights first; nodes at the same position as an earlier one get none.
    static func cells(of unordered: [Node], halfWidth: (String) -> Double?) -> [(node: Node, shape: Shape)] {
        // Stable: among equal weights the order the nodes came in, which decides the feature numbers.
        let nodes = unordered.enumerated().sorted { ($0.element.weight, $1.offset) > ($1.element.weight, $0.offset) }.map(\.element)
        let boxes = nodes.map { node -> BoundingBox in
            let metres = halfWidth(node.type) ?? 0
            let dy = metres / 111_320, dx = metres / (111_320 * max(cos(node.point.y * .pi / 180), 0.01))
            return BoundingBox(minX: node.point.x - dx, minY: node.point.y - dy, maxX: node.point.x + dx, maxY: node.point.y + dy)
        }
        let buckets = BoxBuckets(boxes)
        var cells: [(node: Node, shape: Shape)] = []
        for (i, node) in nodes.enumerated() {
            let box = boxes[i]
            var polygon = [
                Point2D(x: box.minX, y: box.minY), Point2D(x: box.maxX, y: box.minY), Point2D(x: box.maxX, y: box.maxY),
                Point2D(x: box.minX, y: box.maxY),
            ]
            var duplicate = false
            for j in buckets.meeting(box) where j != i {
                let other = nodes[j]
                if other.point == node.point {
                    if j < i { duplicate = true }
                    continue
                }
                // A heavier node's cell came first and holds where it wins.
                if other.weight > node.weight { continue }
                polygon =
                    other.weight == node.weight
                    ? clip(polygon, closerTo: node.point, than: other.point)
                    : clip(polygon, toDisc: winningDisc(of: node, over: other))
                if polygon.count < 3 { break }
            }
            guard !duplicate, polygon.count >= 3 else { continue }
            cells.append((node, .polygon(Polygon(exterior: polygon + [polygon[0]]))))
        }
        return cells
    }

    /// The part of a convex polygon nearer to `a` than to `b` (Sutherland–Hodgman with one half-plane).
    static func clip(_ polygon: [Point2D], closerTo a: Point2D, than b: Point2D) -> [Point2D] {
        // Inside when (b − a)·p ≤ (|b|² − |a|²) / 2.
        let nx = b.x - a.x, ny = b.y - a.y
        let limit = (b.x * b.x + b.y * b.y - a.x * a.x - a.y * a.y) / 2
        func side(_ p: Point2D) -> Double { nx * p.x + ny * p.y - limit }
        var result: [Point2D] = []
        for (k, current) in polygon.enumerated() {
            let next = polygon[(k + 1) % polygon.count]
            let sc = side(current), sn = side(next)
            if sc <= 0 { result.append(current) }
            if (sc < 0 && sn > 0) || (sc > 0 && sn < 0) {
                let t = sc / (sc - sn)
                result.append(Point2D(x: current.x + t * (next.x - current.x), y: current.y + t * (next.y - current.y)))
            }
        }
        return result
    }

    /// The disc where `node` wins over the lighter `other` (weight w₁ > w₂): w₁·|p − a| < w₂·|p − b|, that is
    /// |p − a| < r·|p − b| with r = w₂ / w₁ < 1, an Apollonius circle around `a`.
    static func winningDisc(of node: Node, over other: Node) -> (centre: Point2D, radius: Double) {
        let r = other.weight / node.weight
        let a = node.point, b = other.point
        let k = 1 - r * r
        let distance = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        return (Point2D(x: (a.x - r * r * b.x) / k, y: (a.y - r * r * b.y) / k), r * distance / k)
    }

    /// The part of a convex polygon inside a disc, the disc taken as the 64-gon circumscribing it.
    static func clip(_ polygon: [Point2D], toDisc disc: (centre: Point2D, radius: Double)) -> [Point2D] {
        let sides = 64
        var result = polygon
        for k in 0..<sides where result.count >= 3 {
            let angle = 2 * .pi * Double(k) / Double(sides)
            // The edge touching the circle at `angle`: the side nearer the centre than its mirror point.
            let touch = Point2D(x: disc.centre.x + disc.radius * cos(angle), y: disc.centre.y + disc.radius * sin(angle))
            let mirror = Point2D(x: 2 * touch.x - disc.centre.x, y: 2 * touch.y - disc.centre.y)
            result = clip(result, closerTo: disc.centre, than: mirror)
        }
        return result
    }
}
