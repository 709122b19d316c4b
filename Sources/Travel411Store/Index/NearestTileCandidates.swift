/// Every point that can be the nearest to some query of a 1° tile whose nearest point is not the same
/// throughout (`NearestTileProof`: a coast, where several places share the open sea off it): a search from
/// the tile compares these few instead of walking the tree.
///
/// They are the points within the proof's reach of the tile's centre, which holds every point nearer than
/// the centre's own nearest to some query of the tile, so their nearest is the tree's: the least computed
/// squared chord (the tree's own expression on the same stored numbers), the lower id among equal ones.
/// Sorted by their distance from the centre, so that the comparison stops at the first point too far
/// from the centre to be nearer than the best so far (triangle inequality, with a margin far above the
/// chords' rounding).
// @unchecked Sendable: one allocation, written in init and only read afterwards.
final class NearestTileCandidates: @unchecked Sendable {
    /// Far above the computed chords' rounding (about 1e-16 of a unit sphere), far below a metre (1.6e-7).
    private static let margin = 1e-8
    let count: Int
    private let centre: NearestTileProof.Vector
    /// Per point: x, y, z, then its distance from the centre.
    private let numbers: UnsafeMutablePointer<Double>
    /// Per point: record id, then group.
    private let tags: UnsafeMutablePointer<UInt32>

    init(_ points: [(id: UInt32, group: UInt32, vector: NearestTileProof.Vector)], centre: NearestTileProof.Vector) {
        func chord(_ v: NearestTileProof.Vector) -> Double {
            let dx = v.x - centre.x, dy = v.y - centre.y, dz = v.z - centre.z
            return (dx * dx + dy * dy + dz * dz).squareRoot()
        }
        // Sorted as (distance, position) pairs: moving the points' whole tuples about cost twice as much.
        var order = points.indices.map { (chord: chord(points[$0].vector), index: $0) }
        order.sort { $0.chord < $1.chord }
        count = order.count
        self.centre = centre
        numbers = .allocate(capacity: max(1, count * 4))
        tags = .allocate(capacity: max(1, count * 2))
        for (i, entry) in order.enumerated() {
            let point = points[entry.index]
            (numbers[i * 4], numbers[i * 4 + 1], numbers[i * 4 + 2]) = (point.vector.x, point.vector.y, point.vector.z)
            numbers[i * 4 + 3] = entry.chord
            (tags[i * 2], tags[i * 2 + 1]) = (point.id, point.group)
        }
    }

    deinit {
        numbers.deallocate()
        tags.deallocate()
    }

    /// The nearest of the points to `q` (a query of the tile), as `PointIndex.nearest(to:)` answers it.
    @inline(__always)
    func nearest(to q: PointIndex.Query) -> (id: UInt32, group: UInt32)? {
        let (ex, ey, ez) = (q.x - centre.x, q.y - centre.y, q.z - centre.z)
        let fromCentre = (ex * ex + ey * ey + ez * ez).squareRoot()
        var best = Double.infinity
        var bestIndex = -1
        for i in 0..<count {
            let p = numbers + i * 4
            // No point from here on is nearer to q than its distance from the centre less q's.
            let gap = p[3] - fromCentre - Self.margin
            if gap > 0, gap * gap > best { break }
            let dx = q.x - p[0], dy = q.y - p[1], dz = q.z - p[2]
            let d = dx * dx + dy * dy + dz * dz
            if d < best || (d == best && tags[i * 2] < tags[bestIndex * 2]) {
                best = d
                bestIndex = i
            }
        }
        guard bestIndex >= 0 else { return nil }
        return (tags[bestIndex * 2], tags[bestIndex * 2 + 1])
    }
}
