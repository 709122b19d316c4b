import Foundation
import Travel411Core
import Travel411Store

/// An extract's `place=neighbourhood` nodes (one window of them, a 1° tile's: `NeighbourhoodNodeTiles`), for the `neighbourhood` of Nominatim's address (the server,
/// `where --format nominatim`): Nominatim makes each node an area of ± 500 m and names in a street's address
/// the nearest of those reaching it, in degrees. Taken at the answer's point (the street's point nearest the
/// query), this gives Nominatim's neighbourhood at 286 of Helsinki's 300 zoom-18 points and 234 of Kouvola's
/// (none at 152 and 132 without it). Neighbourhoods are no CLPlacemark field: only that address names them.
final class NeighbourhoodNodes: PlaceNodeWindow {
    struct Node: Sendable {
        var elementID: Int64
        var name: String
        var x: Double
        var y: Double
        /// Its own `postal_code` or `addr:postcode` as written (`nil` in a database imported before it was kept).
        var postcode: String? = nil
    }

    /// A neighbourhood's search rank, whose box `place_node_fuzzy_area` makes ± 500 m.
    static let searchRank = 24
    let nodes: [Node]
    private let cells: NearbyCells

    init(nodes: [Node]) {
        self.nodes = nodes
        cells = NearbyCells(nodes.map { ($0.x, $0.y) })
    }

    /// The node whose area holds the point, the nearest in degrees when several do (the first on a tie).
    package func nearest(to point: Coordinate) -> Int32? {
        let x = point.longitude, y = point.latitude
        return cells.nearest(near: x, y) { index in
            let node = nodes[Int(index)]
            let box = PlaceNodeSearch.boxDegrees(searchRank: Self.searchRank, latitude: node.y)
            let dx = node.x - x, dy = node.y - y
            return abs(dx) <= box.x && abs(dy) <= box.y ? dx * dx + dy * dy : nil
        }
    }

    /// The node nearest a street among those whose box the street passes through, as Nominatim's address picks
    /// it: `distance(node, halfWidthDegrees)` is the street's distance from the node when it passes within the
    /// box, nil otherwise. Candidates lie within 0.1° of `point`.
    package func nearest(near point: Coordinate, distance: (Node, (x: Double, y: Double)) -> Double?) -> Int32? {
        cells.nearest(near: point.longitude, point.latitude) { index in
            let node = nodes[Int(index)]
            return distance(node, PlaceNodeSearch.boxDegrees(searchRank: Self.searchRank, latitude: node.y))
        }
    }

    /// The named `neighbourhood` nodes in a window's cells of the extracts' place layers, in their layers' order, but
    /// those a boundary links to (`LinkedPlaceNodesSchema`).
    static func load(_ source: ExtractPlaceLayers, window: PlaceNodeCellWindow) throws -> NeighbourhoodNodes {
        var nodes: [NeighbourhoodNodes.Node] = []
        let unlinked = LinkedPlaceNodesSchema.unlinkedCondition(present: source.linksKnown)
        // The nodes' points are the R-tree's (floats), as they were when every node was read at once.
        for layer in source.layers {
            guard layer.rtree != nil else { continue }
            let postcode = layer.columns.contains("postcode") ? "p.postcode" : "NULL"
            let (from, inBox, boxValues) = layer.rows(in: window.searchBox)
            let rows = try source.reader.query(
                """
                SELECT p.osm_id, p.name, r.minx, r.miny, \(postcode) FROM \(from)
                WHERE \(inBox)p.place = 'neighbourhood' AND p.osm_type = 'node' AND p.name IS NOT NULL\(unlinked) ORDER BY p.fid
                """, boxValues)
            for row in rows {
                guard let id = row[0].int64Value, let name = row[1].stringValue, let x = row[2].doubleValue, let y = row[3].doubleValue,
                    window.holds(x: x, y: y)
                else { continue }
                nodes.append(NeighbourhoodNodes.Node(elementID: id, name: name, x: x, y: y, postcode: row[4].stringValue))
            }
        }
        return NeighbourhoodNodes(nodes: nodes)
    }

    /// The node as the answer's address part.
    func feature(_ index: Int32) -> AnsweringFeature? {
        guard index >= 0, Int(index) < nodes.count else { return nil }
        let node = nodes[Int(index)]
        return .placeNode(
            elementID: node.elementID, name: node.name, type: "neighbourhood", rank: 24, x: node.x, y: node.y,
            addressKey: "neighbourhood")
    }
}
