import Travel411TestSupport
import XCTest

@testable import Travel411Core
@testable import Travel411Store

/// The batch's cache hints must aim at the lines the lookups then read: a hint for another tile or cell
/// would change no answer, only waste the prefetch, so nothing else would notice.
final class LookupPrefetchTests: XCTestCase {
    func testSpotIsTheTileAndCellTheLookupsRead() {
        var generator = SplitMix64(seed: 37)
        func unit() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
        var points = (0..<20_000).map { _ in Coordinate(latitude: unit() * 180 - 90, longitude: unit() * 360 - 180) }
        points += [Coordinate(latitude: 51.47, longitude: -0.45), Coordinate(latitude: -33.9, longitude: 151.2)]
        for point in points {
            let spot = LookupPrefetch.Spot(point)
            let (x, y) = AreaIndex.clampedToWorld(point.longitude, point.latitude)
            let (column, row) = AreaIndex.tile(x, y)
            XCTAssertEqual(Int(spot.tile), row * AreaIndex.columns + column, "\(point)")
            let (cellRow, cellColumn) = LocalityCells.cell(of: point)
            let subdivisions = LocalityCells.subdivisions
            XCTAssertEqual(Int(spot.tile), (cellRow / subdivisions) * 360 + cellColumn / subdivisions, "\(point)")
            XCTAssertEqual(Int(spot.cell), (cellRow % subdivisions) * subdivisions + cellColumn % subdivisions, "\(point)")
            let quadrant = (x >= Double(column) - 180 + 0.5 ? 1 : 0) | (y >= Double(row) - 90 + 0.5 ? 2 : 0)
            XCTAssertEqual(Int(spot.quadrant), quadrant, "\(point)")
        }
        XCTAssertTrue(LookupPrefetch.Spot(Coordinate(latitude: .nan, longitude: 0)).isNone)
    }
}
