import XCTest

@testable import Travel411Core
@testable import Travel411Store
@testable import Travel411StoreWriters

final class AreaIndexTests: XCTestCase {
    private func square(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> [Point2D] {
        // Clockwise, as shapefile outer rings are.
        [
            Point2D(x: minX, y: minY), Point2D(x: minX, y: maxY), Point2D(x: maxX, y: maxY), Point2D(x: maxX, y: minY),
            Point2D(x: minX, y: minY),
        ]
    }

    func testPolygonWithHoleAndMultipolygon() throws {
        var builder = AreaIndexBuilder()
        // Feature 0: a 10° square with a 2° hole; feature 1: two islands, one inside the hole.
        builder.add(feature: 0, rings: [square(0, 0, 10, 10), square(4, 4, 6, 6).reversed()])
        builder.add(feature: 1, rings: [square(4.5, 4.5, 5.5, 5.5), square(20.25, 20.25, 20.75, 20.75)])
        let index = try AreaIndex(built: builder.build())
        XCTAssertEqual(index.featureIndex(longitude: 1, latitude: 1), 0)
        XCTAssertEqual(index.featureIndex(longitude: 9.99, latitude: 0.01), 0)
        XCTAssertNil(index.featureIndex(longitude: 4.2, latitude: 4.2), "inside the hole, outside the island")
        XCTAssertEqual(index.featureIndex(longitude: 5, latitude: 5), 1, "the island in the hole")
        XCTAssertEqual(index.featureIndex(longitude: 20.5, latitude: 20.5), 1)
        XCTAssertNil(index.featureIndex(longitude: 20.1, latitude: 20.5))
        XCTAssertNil(index.featureIndex(longitude: -1, latitude: 5))
        XCTAssertNil(index.featureIndex(longitude: 11, latitude: 5))
    }

    func testPolygonSplitAtTheAntimeridian() throws {
        // Fiji-like: one feature made of two parts either side of ±180°, as Natural Earth stores it.
        var builder = AreaIndexBuilder()
        builder.add(feature: 0, rings: [square(177, -19, 180, -16), square(-180, -19, -178, -16)])
        let index = try AreaIndex(built: builder.build())
        XCTAssertEqual(index.featureIndex(longitude: 179.9, latitude: -17), 0)
        XCTAssertEqual(index.featureIndex(longitude: -179.9, latitude: -17), 0)
        XCTAssertEqual(index.featureIndex(longitude: 180, latitude: -17), 0)
        XCTAssertNil(index.featureIndex(longitude: -177.5, latitude: -17))
        XCTAssertNil(index.featureIndex(longitude: 176.5, latitude: -17))
    }

    /// A jagged polygon with thousands of vertices, checked against the plain even-odd test on random points.
    func testAgreesWithBruteForceOnAJaggedPolygon() throws {
        var generator = SplitMix64(seed: 7)
        var ring: [Point2D] = []
        let vertexCount = 5000
        for i in 0..<vertexCount {
            let angle = -Double(i) / Double(vertexCount) * 2 * .pi
            let radius = 3 + Double(generator.next() % 1000) / 1000
            ring.append(Point2D(x: 30 + radius * cos(angle), y: 40 + radius * sin(angle)))
        }
        ring.append(ring[0])
        var builder = AreaIndexBuilder()
        builder.add(feature: 0, rings: [ring])
        let index = try AreaIndex(built: builder.build())
        for _ in 0..<20000 {
            let x = 26 + Double(generator.next() % 1_000_000) / 125_000
            let y = 36 + Double(generator.next() % 1_000_000) / 125_000
            let expected = evenOddContains(rings: [ring], x: x, y: y)
            XCTAssertEqual(index.featureIndex(longitude: x, latitude: y) != nil, expected, "at \(x), \(y)")
        }
    }
}

/// A tiny seeded generator so tests are repeatable.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Even-odd point-in-polygon by a ray towards +x, over every ring (holes included): the classic test,
/// the reference the index's answers are checked against.
func evenOddContains(rings: [[Point2D]], x: Double, y: Double) -> Bool {
    var inside = false
    for ring in rings where ring.count >= 2 {
        var previous = ring[ring.count - 1]
        for current in ring {
            if (current.y > y) != (previous.y > y) {
                let crossingX = current.x + (y - current.y) * (previous.x - current.x) / (previous.y - current.y)
                if crossingX > x { inside.toggle() }
            }
            previous = current
        }
    }
    return inside
}
