import Foundation
import Travel411Core
import Travel411OSM

/// Areas for place nodes, as Nominatim gives them when no polygon names a town or a suburb: each node stands
/// for a box around it (± 15 km for a city, 4 km a town, 2 km a village or suburb), and a point whose box
/// holds several belongs to the nearest node, distances taken in degrees of longitude and latitude alike
/// (Nominatim's PostGIS distances on EPSG:4326). So a node's area is its box cut by the bisectors with its
/// neighbours, in degree space: a box-bounded Voronoi cell. (Where boxes of different sizes overlap, the
/// cell of the smaller is cut as if the larger one reached everywhere: a small difference at the edges.)
enum OSMPlaceNodeAreas {
    struct Node {
        var name: String
        var type: String
        var point: Point2D
        var layer: String
        var fid: Int64
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

    /// Each node's cell; nodes at the same position as an earlier one get none.
    static func cells(of nodes: [Node], halfWidth: (String) -> Double?) -> [(node: Node, shape: Shape)] {
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
                polygon = clip(polygon, closerTo: node.point, than: other.point)
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
}
