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
///
/// Where that point is provably the nearest for every query of the tile (`NearestTileProof`), it becomes the
/// tile's answer, and a search from the tile is not made at all: the per-cell answer table of the nearest
/// place. The proof is tried at a tile's second search, by that search's thread, so that a tile searched
/// from once (a sparse input) never pays for it. Where it fails with few points in reach, those points
/// (`NearestTileCandidates`) answer the tile's searches instead of the tree.
// @unchecked Sendable: each tile's vector and nearest point are written once, by the thread that moved its
// state from empty to writing, and read only after an acquiring load sees it ready or later; the proof's
// outcome (and a tile's candidates) is written by the one thread that moved it from ready to proving.
final class TileNearestHints: @unchecked Sendable {
    private static let tileCount = 360 * 180
    private static let empty: UInt8 = 0, writing: UInt8 = 1, ready: UInt8 = 2, proving: UInt8 = 3
    private static let proven: UInt8 = 4, unprovable: UInt8 = 5, listed: UInt8 = 6
    private let states: UnsafeMutablePointer<Atomic<UInt8>>
    private let vectors: UnsafeMutablePointer<Double>
    /// The point nearest to each kept tile's centre: record id, then group.
    private let answers: UnsafeMutablePointer<UInt32>
    /// A listed tile's candidates, retained; written before its state turns `listed`.
    private let candidates: UnsafeMutablePointer<Unmanaged<NearestTileCandidates>?>

    init() {
        states = .allocate(capacity: Self.tileCount)
        for tile in 0..<Self.tileCount { (states + tile).initialize(to: Atomic(Self.empty)) }
        // Written only tile by tile: the pages of tiles never searched from are never touched.
        vectors = .allocate(capacity: Self.tileCount * 3)
        answers = .allocate(capacity: Self.tileCount * 2)
        candidates = .allocate(capacity: Self.tileCount)
    }

    deinit {
        for tile in 0..<Self.tileCount where states[tile].load(ordering: .relaxed) == Self.listed { candidates[tile]?.release() }
        candidates.deallocate()
        states.deinitialize(count: Self.tileCount)
        states.deallocate()
        vectors.deallocate()
        answers.deallocate()
    }

    /// The tile (row-major from 90° S, 180° W) holding a coordinate, and its centre.
    static func tile(of coordinate: Coordinate) -> (number: Int, centre: Coordinate) {
        // Truncation: after the clamp at 0 it is rounding down (a call of libm's `floor` on the baseline target).
        let row = min(179, max(0, Int(coordinate.latitude + 90)))
        let column = min(359, max(0, Int(coordinate.longitude + 180)))
        return (row * 360 + column, Coordinate(latitude: Double(row) - 89.5, longitude: Double(column) - 179.5))
    }

    /// The kept vector of a tile, if its first search has finished.
    @inline(__always) func vector(ofTile tile: Int) -> (Double, Double, Double)? {
        guard states[tile].load(ordering: .acquiring) >= Self.ready else { return nil }
        let v = vectors + tile * 3
        return (v[0], v[1], v[2])
    }

    /// The nearest point of every query of the tile, if it was proven so.
    @inline(__always) func provenNearest(ofTile tile: Int) -> (id: UInt32, group: UInt32)? {
        guard states[tile].load(ordering: .acquiring) == Self.proven else { return nil }
        return (answers[tile * 2], answers[tile * 2 + 1])
    }

    /// The points that answer every query of the tile, if they were listed (`NearestTileCandidates`).
    @inline(__always) func listedCandidates(ofTile tile: Int) -> NearestTileCandidates? {
        guard states[tile].load(ordering: .acquiring) == Self.listed else { return nil }
        return candidates[tile]?.takeUnretainedValue()
    }

    /// Keeps a tile's vector and the point it is of, unless another thread is keeping or has kept them.
    func keep(_ vector: (Double, Double, Double), of nearest: (id: UInt32, group: UInt32), ofTile tile: Int) {
        guard states[tile].compareExchange(expected: Self.empty, desired: Self.writing, ordering: .acquiring).exchanged else { return }
        let v = vectors + tile * 3
        (v[0], v[1], v[2]) = vector
        (answers[tile * 2], answers[tile * 2 + 1]) = nearest
        states[tile].store(Self.ready, ordering: .releasing)
    }

    /// The kept point of a tile whose proof nobody has tried yet, for the caller to try it (and then call
    /// `finishProof`); nil when it is tried or being tried, or nothing is kept.
    func claimProof(ofTile tile: Int) -> (vector: (Double, Double, Double), id: UInt32, group: UInt32)? {
        guard states[tile].compareExchange(expected: Self.ready, desired: Self.proving, ordering: .acquiring).exchanged else { return nil }
        let v = vectors + tile * 3
        return ((v[0], v[1], v[2]), answers[tile * 2], answers[tile * 2 + 1])
    }

    /// Records the claimed proof's outcome: proven, or else the tile's candidates when they were few enough.
    func finishProof(ofTile tile: Int, proven: Bool, candidates list: NearestTileCandidates? = nil) {
        if !proven, let list {
            candidates[tile] = Unmanaged.passRetained(list)
            states[tile].store(Self.listed, ordering: .releasing)
            return
        }
        states[tile].store(proven ? Self.proven : Self.unprovable, ordering: .releasing)
    }
}
