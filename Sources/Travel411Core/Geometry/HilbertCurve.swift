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

    /// The position of grid cell (x, y) along the curve (x and y below 65,536), four levels of the curve at a time.
    ///
    /// At each level the cell's quadrant gives two bits of the position, and the quadrants below are seen turned:
    /// mirrored across both axes, swapped, both or neither. Those four turns are the state; one table entry gives
    /// the next four levels' eight bits and the turn after them, for each state and four bits of x and of y. A
    /// batch computes this for every row, and a level at a time took a mispredicted branch at most levels.
    @inlinable public static func index(x: UInt32, y: UInt32) -> UInt32 {
        fourLevels.withUnsafeBufferPointer { table in
            var index: UInt32 = 0
            var turn: UInt32 = 0
            var shift: UInt32 = 16
            while shift > 0 {
                shift -= 4
                let entry = table[Int(truncatingIfNeeded: turn << 8 | (x >> shift & 15) << 4 | (y >> shift & 15))]
                index = index << 8 | UInt32(entry & 0xFF)
                turn = UInt32(entry >> 8)
            }
            return index
        }
    }

    /// For each turn (bit 0: mirrored, bit 1: swapped) and four bits of x and of y (turn << 8 | x << 4 | y): the
    /// eight bits of position in the low byte, the turn after them in the next.
    @usableFromInline static let fourLevels: [UInt16] = (0..<1024).map { key in
        var mirrored = key >> 8 & 1, swapped = key >> 9 & 1
        var position = 0
        for level in (0..<4).reversed() {
            var xBit = key >> (4 + level) & 1, yBit = key >> level & 1
            if swapped == 1 { swap(&xBit, &yBit) }
            let rx = xBit ^ mirrored, ry = yBit ^ mirrored
            position = position << 2 | ((3 * rx) ^ ry)
            // The quadrants below the lower two are seen swapped, below the lower right also mirrored.
            if ry == 0 {
                mirrored ^= rx
                swapped ^= 1
            }
        }
        return UInt16(position | (mirrored | swapped << 1) << 8)
    }
}
