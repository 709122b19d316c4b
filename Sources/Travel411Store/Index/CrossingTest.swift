import Travel411Core

/// The one predicate both the index builder and the lookups use, so that the inside/outside state
/// the builder records for a cell centre and the state a lookup derives from it always agree.
///
/// True when segment a–b crosses the path c→p. Vertices lying exactly on the path's line count as on
/// its left, and a point exactly on a–b counts as on its left too: a deterministic tie-break that
/// keeps crossing parity additive along consecutive paths.
/// Public and inlinable so that the import's optimised tile builder (`AreaIndexBuilder`) inlines it, not calls it
/// in this module's unoptimised debug build.
@inlinable @inline(__always)
public func pathCrossesSegment(
    _ cx: Double, _ cy: Double, _ px: Double, _ py: Double,
    _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
) -> Bool {
    let dx = px - cx, dy = py - cy
    if vertexLeftOfPath(cx, cy, dx, dy, ax, ay) == vertexLeftOfPath(cx, cy, dx, dy, bx, by) { return false }
    return segmentSeparates(cx, cy, px, py, ax, ay, bx, by)
}

/// `pathCrossesSegment`'s first half for one vertex v: whether it lies left of (or on) the line through c in
/// direction (dx, dy) = p − c. A chain's inner vertex ends one segment and starts the next, so a lookup walking
/// a chain asks this once a vertex rather than twice a segment, with the very same arithmetic.
@inlinable @inline(__always)
public func vertexLeftOfPath(_ cx: Double, _ cy: Double, _ dx: Double, _ dy: Double, _ vx: Double, _ vy: Double) -> Bool {
    dx * (vy - cy) - dy * (vx - cx) >= 0
}

/// `pathCrossesSegment`'s second half, for a segment whose ends lie on either side of the path's line:
/// whether c and p lie on either side of the segment's line.
@inlinable @inline(__always)
public func segmentSeparates(
    _ cx: Double, _ cy: Double, _ px: Double, _ py: Double,
    _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
) -> Bool {
    let ex = bx - ax, ey = by - ay
    let sideC = ex * (cy - ay) - ey * (cx - ax)
    let sideP = ex * (py - ay) - ey * (px - ax)
    return (sideC >= 0) != (sideP >= 0)
}
