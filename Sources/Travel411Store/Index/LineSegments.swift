import Foundation
import Travel411Core

/// One line's segments (`StreetTiles.segments(ofLine:in:maxCells:maxSegments:)`), measured from a point as
/// `StreetTiles.nearestInDegrees(onlyLine:)` measures the line: the same test on the same segments.
package struct LineSegments {
    let line: UInt32
    /// ax, ay, bx, by of each segment.
    package let coordinates: [Double]

    package func nearestInDegrees(to point: Coordinate, radiusDegrees: Double) -> (degrees: Double, closest: Coordinate)? {
        var search = NearestSearch(
            x: point.longitude, y: point.latitude, metresPerDegreeX: 1, metresPerDegreeY: 1, bestSquared: radiusDegrees * radiusDegrees)
        coordinates.withUnsafeBufferPointer { c in
            for i in stride(from: 0, to: c.count, by: 4) { search.consider(ax: c[i], ay: c[i + 1], bx: c[i + 2], by: c[i + 3], id: line) }
        }
        return search.best.map {
            ($0.distance, Coordinate(latitude: point.latitude + $0.closestY, longitude: point.longitude + $0.closestX))
        }
    }
}

/// The running best of one nearest-line search, in a flat projection around the query point (exact
/// enough within a few hundred metres).
struct NearestSearch {
    let x: Double, y: Double
    let metresPerDegreeX: Double, metresPerDegreeY: Double
    var bestSquared: Double
    /// The best line, its distance and the offset of its nearest point from the query, in the search's units.
    var best: (id: UInt32, distance: Double, closestX: Double, closestY: Double)?
    /// The one line the search is confined to, nil for any.
    var onlyLine: UInt32?
    /// Whether only runs of one segment of no length (points) are measured.
    var pointsOnly = false
    /// The line `accept` refused last: its other segments, and the rest of its run, are passed over without
    /// asking again. A filtered search (an address of one street among a city's buildings) refuses most lines,
    /// and asked once per segment nearer than the radius.
    var refused = UInt32.max

    init(x: Double, y: Double, metresPerDegreeX: Double, metresPerDegreeY: Double, bestSquared: Double) {
        self.x = x
        self.y = y
        self.metresPerDegreeX = metresPerDegreeX
        self.metresPerDegreeY = metresPerDegreeY
        self.bestSquared = bestSquared
    }

    /// Whether anything in the box may be nearer than the best so far: the test of `consider` on the box's
    /// corners, which passes whenever it would pass for a segment inside the box.
    @inline(__always) func mayImprove(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        let gx = max(0, (minX - x) * metresPerDegreeX, -((maxX - x) * metresPerDegreeX))
        let gy = max(0, (minY - y) * metresPerDegreeY, -((maxY - y) * metresPerDegreeY))
        return gx * gx + gy * gy <= bestSquared
    }

    /// `accept` says which lines may answer; it is asked only of a line nearer than the best so far.
    @inline(__always) mutating func consider(
        ax: Double, ay: Double, bx: Double, by: Double, id: UInt32, accept: (UInt32) -> Bool = { _ in true }
    ) {
        let ax = (ax - x) * metresPerDegreeX, ay = (ay - y) * metresPerDegreeY
        let bx = (bx - x) * metresPerDegreeX, by = (by - y) * metresPerDegreeY
        // The segment's box farther than the best: most of a cell's segments end here, without the division.
        let gx = max(0, min(ax, bx), -max(ax, bx)), gy = max(0, min(ay, by), -max(ay, by))
        if gx * gx + gy * gy > bestSquared { return }
        let ex = bx - ax, ey = by - ay
        let lengthSquared = ex * ex + ey * ey
        var t = lengthSquared > 0 ? -(ax * ex + ay * ey) / lengthSquared : 0
        t = min(1, max(0, t))
        let px = ax + t * ex, py = ay + t * ey
        let d = px * px + py * py
        if d < bestSquared || (d == bestSquared && best.map { id < $0.id } ?? false) {
            guard id != refused else { return }
            guard accept(id) else {
                refused = id
                return
            }
            bestSquared = d
            best = (id, d.squareRoot(), px / metresPerDegreeX, py / metresPerDegreeY)
        }
    }
}
