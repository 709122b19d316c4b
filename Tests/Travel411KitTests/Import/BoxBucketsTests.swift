import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import

/// The buckets find exactly what testing every box finds, in the same order.
struct BoxBucketsTests {
    private static func randomBox(_ generator: inout some RandomNumberGenerator) -> BoundingBox {
        let x = Double.random(in: -181...181, using: &generator), y = Double.random(in: -91...91, using: &generator)
        // Mostly municipality-sized, some a country's (more than BoxBuckets.maxTiles tiles), some points.
        let size = [0, 0.05, 0.3, 2, 15][Int.random(in: 0..<5, using: &generator)]
        return BoundingBox(minX: x, minY: y, maxX: x + size * Double.random(in: 0...1, using: &generator), maxY: y + size)
    }

    @Test func findsWhatTestingEveryBoxFinds() {
        var generator = SystemRandomNumberGenerator()
        var boxes = (0..<2_000).map { _ in Self.randomBox(&generator) }
        boxes += [.empty, BoundingBox(minX: .nan, minY: 0, maxX: 1, maxY: 1), BoundingBox(minX: -180, minY: -90, maxX: 180, maxY: 90)]
        let buckets = BoxBuckets(boxes)
        for _ in 0..<2_000 {
            let x = Double.random(in: -181...181, using: &generator), y = Double.random(in: -91...91, using: &generator)
            #expect(buckets.holding(x: x, y: y) == boxes.indices.filter { boxes[$0].contains(x: x, y: y) })
            let query = Self.randomBox(&generator)
            // A box with a NaN "meets" every box by comparisons alone; the buckets leave it out.
            let meeting = boxes.indices.filter { !boxes[$0].isEmpty && !boxes[$0].minX.isNaN && boxes[$0].intersects(query) }
            #expect(buckets.meeting(query) == meeting)
        }
        // A box's own corners and edges count.
        #expect(buckets.holding(x: boxes[0].maxX, y: boxes[0].maxY).contains(0))
        #expect(buckets.holding(x: .nan, y: 0).isEmpty)
        #expect(buckets.meeting(.empty).isEmpty)
    }
}
