import Synchronization
import Travel411Core

/// Per 1° tile, the unit vector of the point nearest to the tile's centre, found by the first search
/// from that tile and kept: a search from anywhere in the tile then starts with the distance to that
/// point as its bound. An unbounded search far from every point (the open sea, hundreds of kilometres
/// from a coast) first descends to whatever leaf its partition holds and backtracks through much of
/// the tree; bounded from the start, it skips every subtree farther than a point known to exist.
///
/// The bound only narrows where the search looks: the point it came from lies within it, so the
/// nearest point (and, among equal distances, the lowest id) is still found, the same answer.
// @unchecked Sendable: each tile's vector is written once, by the thread that moved its state from
// empty to writing, and read only after an acquiring load sees it ready.
final class TileNearestHints: @unchecked Sendable {
    private static let tileCount = 360 * 180
    private static let empty: UInt8 = 0, writing: UInt8 = 1, ready: UInt8 = 2
    private let states: UnsafeMutablePointer<Atomic<UInt8>>
    private let vectors: UnsafeMutablePointer<Double>

    init() {
        states = .allocate(capacity: Self.tileCount)
        for tile in 0..<Self.tileCount { (states + tile).initialize(to: Atomic(Self.empty)) }
        // Written only tile by tile: the pages of tiles never searched from are never touched.
        vectors = .allocate(capacity: Self.tileCount * 3)
    }

    deinit {
        states.deinitialize(count: Self.tileCount)
        states.deallocate()
        vectors.deallocate()
    }

    /// The tile (row-major from 90° S, 180° W) holding a coordinate, and its centre.
    static func tile(of coordinate: Coordinate) -> (number: Int, centre: Coordinate) {
        let row = min(179, max(0, Int((coordinate.latitude + 90).rounded(.down))))
        let column = min(359, max(0, Int((coordinate.longitude + 180).rounded(.down))))
        return (row * 360 + column, Coordinate(latitude: Double(row) - 89.5, longitude: Double(column) - 179.5))
    }

    /// The kept vector of a tile, if its first search has finished.
    @inline(__always) func vector(ofTile tile: Int) -> (Double, Double, Double)? {
        guard states[tile].load(ordering: .acquiring) == Self.ready else { return nil }
        let v = vectors + tile * 3
        return (v[0], v[1], v[2])
    }

    /// Keeps a tile's vector, unless another thread is keeping or has kept one.
    func keep(_ vector: (Double, Double, Double), ofTile tile: Int) {
        guard states[tile].compareExchange(expected: Self.empty, desired: Self.writing, ordering: .acquiring).exchanged else { return }
        let v = vectors + tile * 3
        (v[0], v[1], v[2]) = vector
        states[tile].store(Self.ready, ordering: .releasing)
    }
}
