import XCTest

@testable import Travel411Core
@testable import Travel411Store
@testable import Travel411StoreWriters

/// A leaf's crossing count (each vertex's side of the path once, the rest of the test only where the side changes)
/// against the segment-by-segment `pathCrossesSegment` loop it replaced, on the same tiles, at points chosen to tie:
/// vertices, segment midpoints, points level with a vertex or straight above it, all on a grid of 1/1024°.
final class AreaLeafCrossingTests: XCTestCase {
    func testLeavesCountAsSegmentBySegment() throws {
        var generator = SplitMix64(seed: 11)
        func grid(_ value: Double) -> Double { (value * 1024).rounded() / 1024 }
        var rings: [[Point2D]] = []
        // Two overlapping jagged polygons across four tiles.
        for (centreX, centreY) in [(30.5, 40.5), (31.2, 40.9)] {
            var ring: [Point2D] = []
            let count = 3000
            for i in 0..<count {
                let angle = -Double(i) / Double(count) * 2 * .pi
                let radius = 0.6 + Double(generator.next() % 1000) / 2000
                ring.append(Point2D(x: grid(centreX + radius * cos(angle)), y: grid(centreY + radius * sin(angle))))
            }
            ring.append(ring[0])
            rings.append(ring)
        }
        var builder = AreaIndexBuilder()
        for (feature, ring) in rings.enumerated() { builder.add(feature: feature, rings: [ring]) }
        let built = try builder.build()
        var points: [Point2D] = []
        for ring in rings {
            for (a, b) in zip(ring, ring.dropFirst()) {
                points.append(a)
                points.append(Point2D(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2))
                points.append(Point2D(x: a.x + 1.0 / 1024, y: a.y))
                points.append(Point2D(x: a.x, y: a.y + 1.0 / 1024))
            }
        }
        for _ in 0..<20000 {
            let x = 29 + Double(generator.next() % 1_000_000) / 250_000
            points.append(Point2D(x: x, y: 39 + Double(generator.next() % 1_000_000) / 250_000))
        }
        var compared = 0
        for tile in built.tiles {
            let blob = BlobStorage(bytes: tile.blob)
            let minX = Double(tile.index % AreaIndex.columns) - 180, minY = Double(tile.index / AreaIndex.columns) - 90
            withExtendedLifetime(blob) {
                let area = AreaTile(checkedBase: blob.base)
                for p in points where p.x >= minX && p.x < minX + 1 && p.y >= minY && p.y < minY + 1 {
                    let expected = segmentBySegment(area, x: p.x, y: p.y, minX: minX, minY: minY)
                    XCTAssertEqual(area.featureIndex(x: p.x, y: p.y, minX: minX, minY: minY), expected, "at \(p.x), \(p.y)")
                    compared += 1
                }
            }
        }
        // Those in tiles a border crosses (37,842 when written).
        XCTAssertGreaterThan(compared, 30000)
    }

    /// `AreaTile.featureIndex` as it was before session 35: the same descent (`AreaTile.descend`), then every segment
    /// of the leaf's chains through `pathCrossesSegment`.
    private func segmentBySegment(_ tile: AreaTile, x: Double, y: Double, minX: Double, minY: Double) -> Int? {
        let (ref, cellX, cellY, size) = tile.descend(x: x, y: y, minX: minX, minY: minY)
        switch AreaIndex.tag(ref) {
        case AreaIndex.Tag.uniform.rawValue: return Int(AreaIndex.payload(ref))
        case AreaIndex.Tag.leafOrTile.rawValue: break
        default: return nil
        }
        let cx = cellX + size * AreaIndex.referenceFractionX, cy = cellY + size * AreaIndex.referenceFractionY
        var cursor = tile.records + Int(AreaIndex.payload(ref))
        let entryCount = Int(cursor[0])
        cursor += 1
        for _ in 0..<entryCount {
            let feature = cursor[0]
            var inside = cursor[1] != 0
            let chainCount = Int(cursor[2])
            cursor += 3
            for _ in 0..<chainCount {
                let first = Int(cursor[0]), count = Int(cursor[1])
                cursor += 2
                let v = tile.vertices + first * 2
                for i in 1..<count where pathCrossesSegment(cx, cy, x, y, v[2 * i - 2], v[2 * i - 1], v[2 * i], v[2 * i + 1]) {
                    inside.toggle()
                }
            }
            if inside { return Int(feature) }
        }
        return nil
    }
}
