import Foundation
import Travel411Core
import Travel411Store

/// Boxes bucketed by the 0.1° tiles they cover, to find the few that hold a point or meet a box. Testing every
/// place node against every municipality, and every node's box against every other's, is quadratic: an
/// extract of 6,600 municipalities and 12,000 place nodes imported three times as slowly that way.
struct BoxBuckets {
    private let boxes: [BoundingBox]
    private var buckets: [UInt32: [Int]] = [:]
    /// Boxes covering more tiles than `maxTiles` (a country's boundary), tested by every query.
    private var wide: [Int] = []
    static let maxTiles = 10_000

    init(_ boxes: [BoundingBox]) {
        self.boxes = boxes
        for (index, box) in boxes.enumerated() {
            // An empty or broken box holds nothing, and is in no bucket.
            guard Self.usable(box) else { continue }
            guard let (rows, columns) = Self.tiles(of: box) else {
                wide.append(index)
                continue
            }
            for row in rows {
                for column in columns { buckets[TileGrid.tileKey(row: row, column: column), default: []].append(index) }
            }
        }
    }

    private static func usable(_ box: BoundingBox) -> Bool {
        !box.isEmpty && box.minX.isFinite && box.maxX.isFinite && box.minY.isFinite && box.maxY.isFinite
    }

    /// The rows and columns of the tiles `box` covers; nil for more than `maxTiles`.
    private static func tiles(of box: BoundingBox) -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>)? {
        let tiles = TileGrid.tiles(touching: box)
        return tiles.rows.count * tiles.columns.count > maxTiles ? nil : tiles
    }

    /// The indices of the boxes holding the point (edges included), ascending.
    func holding(x: Double, y: Double) -> [Int] {
        guard x.isFinite, y.isFinite else { return [] }
        let bucket = buckets[TileGrid.tileKey(row: TileGrid.tileRow(y), column: TileGrid.tileColumn(x))] ?? []
        let found = wide.isEmpty ? bucket : (bucket + wide).sorted()
        return found.filter { boxes[$0].contains(x: x, y: y) }
    }

    /// The indices of the boxes meeting `box` (edges included), ascending.
    func meeting(_ box: BoundingBox) -> [Int] {
        guard Self.usable(box) else { return [] }
        guard let (rows, columns) = Self.tiles(of: box) else {
            return boxes.indices.filter { Self.usable(boxes[$0]) && boxes[$0].intersects(box) }
        }
        var found = Set(wide)
        for row in rows {
            for column in columns {
                if let bucket = buckets[TileGrid.tileKey(row: row, column: column)] { found.formUnion(bucket) }
            }
        }
        return found.filter { boxes[$0].intersects(box) }.sorted()
    }
}
