import Foundation
import Travel411Core
import Travel411Store

/// An extract's place nodes finer than its suburbs and hamlets (`LinkedPlaceNodesSchema.fineTypes`: a quarter, a
/// neighbourhood, a square, a locality…), for Nominatim's answer at zooms 14-15; one window of them, a 1° tile's
/// (`FinePlaceNodeTiles`).
/// Nominatim 5.3's area search (`_lookup_area_address` and `lookup_country`, `nominatim_api/reverse.py`) answers
/// with the place node of the highest search rank within its reach (`reverse_place_diameter`, 0.02° from rank
/// 20 on) and no finer than the zoom allows, the nearest of that rank: at zoom 14 (rank 22 at most) central
/// London answers its quarter Blackfriars (search rank 20) over the suburb Clerkenwell (19), with the quarter's
/// own postcode. The suburb-level nodes (`PlaceNodeSearch`) stay the address's suburb.
final class FinePlaceNodes: PlaceNodeWindow {
    struct Node: Sendable {
        var elementID: Int64
        var name: String
        /// The node's `place` tag, its key in Nominatim's address.
        var type: String
        var x: Double
        var y: Double
        /// Nominatim's search rank of the node's kind (`NominatimPlaceKinds.nodeRank`).
        var rank: Int
        /// A town, village or hamlet node the import made no area of (`subpartTypes`), a candidate of
        /// `chooseSubpartNodeAsNominatim` and `takeFinePlaceNodeInArea` only.
        var isSubpart = false
    }

    /// Which nodes `candidates` takes: the fine kinds, the subpart nodes, or both.
    enum Kinds { case fine, subparts, all }

    /// The kinds whose search rank is 20 or finer and that `PlaceNodeSearch` does not hold (hamlets it does).
    static let types = LinkedPlaceNodesSchema.fineTypes
    /// The coarser kinds whose nodes answer inside a municipality polygon (`_lookup_area_address`, reverse.py) where the
    /// import made them no area of their own: a village or hamlet inside a boundary, where the extract's suburbs are
    /// polygons (Malta's councils and its four suburb polygons), is in no place-node search.
    static let subpartTypes = LinkedPlaceNodesSchema.subpartTypes
    let nodes: [Node]
    private let cells: NearbyCells

    init(nodes: [Node]) {
        self.nodes = nodes
        cells = NearbyCells(nodes.map { ($0.x, $0.y) })
    }

    /// The nodes within reach of the point (`NominatimPlaceKinds.reversePlaceDiameter`, in degrees of longitude and latitude
    /// alike) of a search rank up to `maximumRank`, best first: the highest rank, then the nearest, then the first.
    func candidates(x: Double, y: Double, maximumRank: Int, kinds: Kinds = .fine) -> [(index: Int32, rank: Int, distanceSquared: Double)] {
        var found: [(index: Int32, rank: Int, distanceSquared: Double)] = []
        cells.forEach(near: x, y) { index in
            let node = nodes[Int(index)]
            guard node.rank <= maximumRank, kinds == .all || (kinds == .subparts) == node.isSubpart else { return }
            let dx = node.x - x, dy = node.y - y
            let distanceSquared = dx * dx + dy * dy
            let reach = NominatimPlaceKinds.reversePlaceDiameter(searchRank: node.rank)
            guard distanceSquared < reach * reach else { return }
            found.append((index, node.rank, distanceSquared))
        }
        return found.sorted { ($1.rank, $0.distanceSquared, $0.index) < ($0.rank, $1.distanceSquared, $1.index) }
    }

    /// The `quarter` node a street's or object's address names (address rank 22, Nominatim's `address-levels.json`):
    /// of the quarters whose box (`place_node_fuzzy_area` of search rank 20: ± 1 km) the street passes through, the
    /// nearest, as `insert_addresslines` takes the first candidate of each rank. `distance(node, halfWidthDegrees)`
    /// is the street's distance from the node in degrees when it passes within the box and the node may be named
    /// (`current_node_area`, `current_boundary`), nil otherwise. Candidates lie within reach of `point`.
    func nearestQuarter(near point: Coordinate, distance: (Node, (x: Double, y: Double)) -> Double?) -> Int32? {
        cells.nearest(near: point.longitude, point.latitude) { index in
            let node = nodes[Int(index)]
            return node.type == "quarter" ? distance(node, PlaceNodeSearch.boxDegrees(searchRank: node.rank, latitude: node.y)) : nil
        }
    }

    /// Whether the box of the node `index` (`place_node_fuzzy_area`) holds the point: a finer node must lie in it to
    /// be named after it (`current_node_area`).
    func boxHolds(_ index: Int32, x: Double, y: Double) -> Bool {
        guard index >= 0, Int(index) < nodes.count else { return true }
        let node = nodes[Int(index)]
        let box = PlaceNodeSearch.boxDegrees(searchRank: node.rank, latitude: node.y)
        return abs(node.x - x) <= box.x && abs(node.y - y) <= box.y
    }

    /// The named place nodes of these kinds in a window's cells of the extracts' place layers, in their layers'
    /// order, but those a boundary links to; then the subpart nodes (`subpartTypes`) of no area.
    static func load(_ source: ExtractPlaceLayers, window: PlaceNodeCellWindow) throws -> FinePlaceNodes {
        var nodes: [Node] = []
        let kinds = types.sorted().map { "'\($0)'" }.joined(separator: ", ")
        // A node a boundary links to is no place of its own: the boundary answers instead (Nominatim's).
        let unlinked = LinkedPlaceNodesSchema.unlinkedCondition(present: source.linksKnown)
        let subpartKinds = subpartTypes.sorted().map { "'\($0)'" }.joined(separator: ", ")
        // Both forms leave out a node with an area of its own; the index makes the second a lookup per node, where the
        // first reads every area of the layer.
        let noArea =
            source.areasIndexedByElement
            ? "NOT EXISTS (SELECT 1 FROM travel411_areas a WHERE a.layer = ? AND a.fid = p.fid)"
            : "p.fid NOT IN (SELECT fid FROM travel411_areas WHERE layer = ? AND fid IS NOT NULL)"
        let box = window.searchBox
        for layer in source.layers {
            // A capital ranks one step more important (`NominatimPlaceKinds.nodeRank(type:isCapital:)`); a places layer
            // keeps `capital` since lookup tables 24.
            let capital = layer.columns.contains("capital") ? "p.capital" : "0"
            let (from, inBox, boxValues) = layer.rows(in: box)
            let fine = try source.reader.query(
                """
                SELECT p.osm_id, p.name, p.place, p.geom, \(capital) FROM \(from)
                WHERE \(inBox)p.place IN (\(kinds)) AND p.osm_type = 'node' AND p.name IS NOT NULL\(unlinked) ORDER BY p.fid
                """, boxValues)
            nodes += fine.compactMap { node(from: $0, isSubpart: false, in: window) }
            // A node with an area of its own answers through the place-node searches (`PlaceNodeSearch`).
            guard source.areasKnown else { continue }
            let subparts = try source.reader.query(
                """
                SELECT p.osm_id, p.name, p.place, p.geom, \(capital) FROM \(from)
                WHERE \(inBox)p.place IN (\(subpartKinds)) AND p.osm_type = 'node' AND p.name IS NOT NULL\(unlinked)
                AND \(noArea) ORDER BY p.fid
                """, boxValues + [.text(layer.table)])
            nodes += subparts.compactMap { node(from: $0, isSubpart: true, in: window) }
        }
        return FinePlaceNodes(nodes: nodes)
    }

    /// A node of a place layer's row (`osm_id`, `name`, `place`, `geom`, `capital`); nil for one of no known kind or no
    /// point, or outside the window's cells.
    private static func node(from row: [SQLValue], isSubpart: Bool, in window: PlaceNodeCellWindow) -> Node? {
        // The point as stored, in doubles: the R-tree's boxes are floats, 0.15 m off (Nominatim prints 7 decimals).
        guard let id = row[0].int64Value, let name = row[1].stringValue, let type = row[2].stringValue,
            let rank = NominatimPlaceKinds.nodeRank(type: type, isCapital: row[4].int64Value == 1), case .blob(let blob) = row[3],
            case .point(let point)? = try? GeoPackageGeometryCodec.decode(blob), window.holds(x: point.x, y: point.y)
        else { return nil }
        return Node(elementID: id, name: name, type: type, x: point.x, y: point.y, rank: rank, isSubpart: isSubpart)
    }

    /// The node as the answer: a place node of its kind, keyed by it in the address, with its own postcode.
    func feature(_ index: Int32, postcode: String?) -> AnsweringFeature? {
        guard index >= 0, Int(index) < nodes.count else { return nil }
        let node = nodes[Int(index)]
        return .placeNode(
            elementID: node.elementID, name: node.name, type: node.type, rank: node.rank, x: node.x, y: node.y, postcode: postcode,
            addressKey: node.type)
    }
}
