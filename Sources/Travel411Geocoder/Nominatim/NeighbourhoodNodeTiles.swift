import Travel411Core
import Travel411Store

/// The extracts' neighbourhood nodes (`NeighbourhoodNodes`) read by 1° tile as lookups ask (`PlaceNodeWindows`), named
/// by index as `FinePlaceNodeTiles` names its nodes.
final class NeighbourhoodNodeTiles: Sendable {
    private let windows: PlaceNodeWindows<NeighbourhoodNodes>

    /// The tiles of the database's place layers; nothing is read but the layers' list until a search asks.
    static func open(from reader: SharedDatabaseReader) throws -> NeighbourhoodNodeTiles {
        NeighbourhoodNodeTiles(windows: PlaceNodeWindows(source: try ExtractPlaceLayers(reader: reader)))
    }

    private init(windows: PlaceNodeWindows<NeighbourhoodNodes>) { self.windows = windows }

    /// Whether the database has no extract's place layer, so no node anywhere.
    var isEmpty: Bool { windows.isEmpty }

    /// The node an index names; nil for -1 or an unknown index.
    func node(_ index: Int64) -> NeighbourhoodNodes.Node? { windows.node(index) }

    /// `NeighbourhoodNodes.nearest(to:)` in the point's window, by index.
    func nearest(to point: Coordinate) -> Int64? {
        searched(near: point) { $0.nearest(to: point) }
    }

    /// `NeighbourhoodNodes.nearest(near:distance:)` in the point's window, by index.
    func nearest(near point: Coordinate, distance: (NeighbourhoodNodes.Node, (x: Double, y: Double)) -> Double?) -> Int64? {
        searched(near: point) { $0.nearest(near: point, distance: distance) }
    }

    /// The node `index` as the answer's address part (`NeighbourhoodNodes.feature`).
    func feature(_ index: Int64) -> AnsweringFeature? {
        guard let (window, position) = windows.window(ofIndex: index) else { return nil }
        return window.feature(Int32(truncatingIfNeeded: position))
    }

    private func searched(near point: Coordinate, _ search: (NeighbourhoodNodes) -> Int32?) -> Int64? {
        guard !isEmpty, let (tile, window) = windows.window(x: point.longitude, y: point.latitude), let position = search(window)
        else { return nil }
        return PlaceNodeWindows<NeighbourhoodNodes>.index(tile: tile, position: position)
    }
}
