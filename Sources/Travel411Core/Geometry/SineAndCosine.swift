import CSineCosine

/// The sine and cosine of `x` radians at once: bit for bit `sin(x)` and `cos(x)` (glibc computes `sincos`, `sin`
/// and `cos` with the same routines), for little more than the cost of one. A batch asks for several pairs a point.
@inlinable @inline(__always)
public func sineAndCosine(_ x: Double) -> (sin: Double, cos: Double) {
    var sine = 0.0, cosine = 0.0
    travel411_sincos(x, &sine, &cosine)
    return (sine, cosine)
}
