/// Positions along a Hilbert curve through a 65,536 × 65,536 grid over the world (about 600 m a step in longitude):
/// points near each other on the ground are mostly near each other on the curve. The feature tables' R-trees are
/// packed in this order, and a batch answers a chunk's rows in it (`SpatialRowOrder`).
public enum HilbertCurve {
    /// The position of the grid cell holding (`longitude`, `latitude`); a value that is not finite counts as the
    /// grid's first step.
    @inlinable public static func index(longitude: Double, latitude: Double) -> UInt32 {
        index(x: gridCoordinate(longitude, 180), y: gridCoordinate(latitude, 90))
    }

    /// A coordinate on a 65,536-step grid across [-half, half].
    @inlinable public static func gridCoordinate(_ value: Double, _ half: Double) -> UInt32 {
        guard value.isFinite else { return 0 }
        return UInt32(min(65_535, max(0, ((value + half) / (2 * half) * 65_536).rounded(.down))))
    }

    /// The position of grid cell (x, y) along the curve.
    @inlinable public static func index(x: UInt32, y: UInt32) -> UInt32 {
        var x = x, y = y, index: UInt32 = 0
        var side: UInt32 = 1 << 15
        while side > 0 {
            let rx: UInt32 = (x & side) > 0 ? 1 : 0
            let ry: UInt32 = (y & side) > 0 ? 1 : 0
            index &+= side &* side &* ((3 &* rx) ^ ry)
            // Rotate the quadrant so that the curve's pieces join up.
            if ry == 0 {
                if rx == 1 {
                    x = 65_535 &- x
                    y = 65_535 &- y
                }
                swap(&x, &y)
            }
            side >>= 1
        }
        return index
    }
}
