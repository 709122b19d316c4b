import Travel411Core
import Travel411Store

/// The extracts' fine place nodes (`FinePlaceNodes`) read by 1° tile as lookups ask (`PlaceNodeWindows`). A node is
/// named by an index of its tile and its place in the tile's window, which `PlacemarkRecord` keeps; each search reads
/// the window of its own point, which holds every node the search can find (`PlaceNodeCellWindow`).
final class FinePlaceNodeTiles: Sendable {
    /// Whether the database lists the nodes boundaries link to (`LinkedPlaceNodesSchema`), which are then not here.
    let linksKnown: Bool
    private let windows: PlaceNodeWindows<FinePlaceNodes>

    private init(source: ExtractPlaceLayers) {
        linksKnown = source.linksKnown
        windows = PlaceNodeWindows(source: source)
    }

    /// Whether the database has no extract's place layer, so no node anywhere.
    var isEmpty: Bool { windows.isEmpty }

    /// The tiles of the database's place layers; nothing is read but the layers' list until a search asks.
    static func open(from reader: SharedDatabaseReader) throws -> FinePlaceNodeTiles {
        FinePlaceNodeTiles(source: try ExtractPlaceLayers(reader: reader))
    }

    /// The node an index names; nil for -1 or an unknown index.
    func node(_ index: Int64) -> FinePlaceNodes.Node? { windows.node(index) }

    /// `FinePlaceNodes.candidates` of the point's window, by index.
    func candidates(x: Double, y: Double, maximumRank: Int, kinds: FinePlaceNodes.Kinds = .fine)
        -> [(index: Int64, rank: Int, distanceSquared: Double)]
    {
        guard !isEmpty, let (tile, window) = windows.window(x: x, y: y) else { return [] }
        return window.candidates(x: x, y: y, maximumRank: maximumRank, kinds: kinds).map {
            (PlaceNodeWindows<FinePlaceNodes>.index(tile: tile, position: $0.index), $0.rank, $0.distanceSquared)
        }
    }

    /// `FinePlaceNodes.nearestQuarter` of the point's window, by index.
    func nearestQuarter(near point: Coordinate, distance: (FinePlaceNodes.Node, (x: Double, y: Double)) -> Double?) -> Int64? {
        guard !isEmpty, let (tile, window) = windows.window(x: point.longitude, y: point.latitude),
            let position = window.nearestQuarter(near: point, distance: distance)
        else { return nil }
        return PlaceNodeWindows<FinePlaceNodes>.index(tile: tile, position: position)
    }

    /// Whether the box of the node `index` holds the point (`FinePlaceNodes.boxHolds`); true for -1.
    func boxHolds(_ index: Int64, x: Double, y: Double) -> Bool {
        guard let (window, position) = windows.window(ofIndex: index) else { return true }
        return window.boxHolds(Int32(truncatingIfNeeded: position), x: x, y: y)
    }

    /// The node `index` as the answer (`FinePlaceNodes.feature`).
    func feature(_ index: Int64, postcode: String?) -> AnsweringFeature? {
        guard let (window, position) = windows.window(ofIndex: index) else { return nil }
        return window.feature(Int32(truncatingIfNeeded: position), postcode: postcode)
    }

    /// Whether any of the nodes, subparts too, lies within its reach of (x, y).
    func anyReaches(x: Double, y: Double) -> Bool {
        !candidates(x: x, y: y, maximumRank: .max, kinds: .all).isEmpty
    }
}
