import Foundation

/// Nominatim's answer between the street and the municipality (zooms 13-15) where an extract draws its
/// suburbs, hamlets and village parts as place nodes only: of the nodes inside the municipality holding
/// the point, ranked above it and no finer than the zoom allows, the finest kind within its reach
/// (`reverse_place_diameter`: 0.04° for a suburb or village, 0.02° for a hamlet, in degrees of longitude
/// and latitude alike, as PostGIS measures them), the nearest of that kind. The node cells drawn at import
/// (± 2 km, ± 1 km) answer the streets' addresses; at these zooms Nominatim reaches farther and prefers a
/// hamlet to a suburb nearer by: Kouvola's zoom-14 answers agreed at 56 % with the cells alone.
struct PlaceNodeSearch: Sendable {
    struct Node: Sendable {
        /// The node's area in the suburb level.
        var feature: Int32
        var x: Double
        var y: Double
        /// Nominatim's search rank of the node's kind (`NominatimPlace.nodeRank`).
        var rank: Int
        /// The municipality (city level feature) holding the node, -1 for none.
        var municipality: Int32
    }

    private let nodes: [Node]
    private let cells: NearbyCells
    private let features: Set<Int32>

    init(nodes: [Node]) {
        self.nodes = nodes
        cells = NearbyCells(nodes.map { ($0.x, $0.y) })
        features = Set(nodes.map(\.feature))
    }

    var isEmpty: Bool { features.isEmpty }

    /// Whether a suburb-level feature is one of the nodes' areas (not a polygon of the extract).
    func isNodeArea(_ feature: Int32) -> Bool { features.contains(feature) }

    /// The suburb-level feature Nominatim answers with at `maximumRank`, nil when no node reaches the point.
    /// `municipality` (-1 for none) restricts the nodes to those inside it.
    func answer(x: Double, y: Double, maximumRank: Int, municipality: Int32) -> Int32? {
        var best: (rank: Int, distanceSquared: Double, feature: Int32)? = nil
        cells.forEach(near: x, y) { index in
            let node = nodes[Int(index)]
            guard node.rank <= maximumRank, municipality < 0 || node.municipality == municipality else { return }
            let dx = node.x - x, dy = node.y - y
            let distanceSquared = dx * dx + dy * dy
            let reach = Self.reachDegrees(rank: node.rank)
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

    /// Nominatim's `reverse_place_diameter` of a rank, in degrees: how far from a node its place reaches.
    static func reachDegrees(rank: Int) -> Double {
        switch rank {
        case ...4: return 5
        case ...8: return 1.8
        case ...12: return 0.6
        case ...17: return 0.16
        case 18: return 0.08
        case 19: return 0.04
        default: return 0.02
        }
    }
}
