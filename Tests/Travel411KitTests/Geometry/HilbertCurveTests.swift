import XCTest

@testable import Travel411Core

final class HilbertCurveTests: XCTestCase {
    /// The curve a level at a time, as the feature tables were packed by before the four-level table: the table
    /// must give every cell the same position, or the tables' bytes would change.
    private static func levelAtATime(x: UInt32, y: UInt32) -> UInt32 {
        var x = x, y = y, index: UInt32 = 0
        var side: UInt32 = 1 << 15
        while side > 0 {
            let rx: UInt32 = (x & side) > 0 ? 1 : 0
            let ry: UInt32 = (y & side) > 0 ? 1 : 0
            index &+= side &* side &* ((3 &* rx) ^ ry)
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

    func testFourLevelsAtATimeGiveTheSamePositions() {
        var generator = SeededGenerator(seed: 48)
        var cells: [(UInt32, UInt32)] = [(0, 0), (65_535, 65_535), (0, 65_535), (65_535, 0), (32_768, 32_767)]
        for _ in 0..<200_000 {
            cells.append((UInt32.random(in: 0...65_535, using: &generator), UInt32.random(in: 0...65_535, using: &generator)))
        }
        // Every cell of a corner of the grid, so that every entry of the table is used.
        for x: UInt32 in 0..<256 { for y: UInt32 in 0..<256 { cells.append((x, y)) } }
        for (x, y) in cells where HilbertCurve.index(x: x, y: y) != Self.levelAtATime(x: x, y: y) {
            XCTFail("cell (\(x), \(y)): \(HilbertCurve.index(x: x, y: y)), a level at a time \(Self.levelAtATime(x: x, y: y))")
            return
        }
    }

    /// Each step along the curve moves to a neighbouring cell: checked over a 256 × 256 corner's positions.
    func testConsecutivePositionsAreNeighbours() {
        var cellAt = [Int: (Int, Int)]()
        for x in 0..<256 { for y in 0..<256 { cellAt[Int(HilbertCurve.index(x: UInt32(x), y: UInt32(y)))] = (x, y) } }
        XCTAssertEqual(cellAt.count, 65_536, "the corner holds the curve's first 65,536 positions")
        for position in 1..<65_536 {
            guard let (x0, y0) = cellAt[position - 1], let (x1, y1) = cellAt[position] else { return XCTFail("gap at \(position)") }
            XCTAssertEqual(abs(x1 - x0) + abs(y1 - y0), 1, "step \(position)")
        }
    }
}
