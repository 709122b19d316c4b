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
    let sideA = dx * (ay - cy) - dy * (ax - cx)
    let sideB = dx * (by - cy) - dy * (bx - cx)
    if (sideA >= 0) == (sideB >= 0) { return false }
    let ex = bx - ax, ey = by - ay
    let sideC = ex * (cy - ay) - ey * (cx - ax)
    let sideP = ex * (py - ay) - ey * (px - ax)
    return (sideC >= 0) != (sideP >= 0)
}
