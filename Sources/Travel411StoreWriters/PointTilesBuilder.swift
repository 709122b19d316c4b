import Foundation
import Travel411Core
import Travel411Store

/// Builds the pages of `PointTiles` from any number of points in bounded memory: each point becomes a
/// record keyed by its tile and id, sorted on disk (`ExternalSorter`), and `finish` builds and hands over
/// one tile's page at a time. Memory is the sorter's buffer and the largest tile, whatever the number of
/// points.
package final class PointTilesBuilder {
    /// One point. `key` sorts by tile, then by id, so that the pages do not depend on where the sort's
    /// runs were cut.
    package struct Record: BitwiseCopyable {
        var key: UInt64
        var cell: UInt32
        var padding: UInt32 = 0
        var x: Double, y: Double, z: Double

        var tile: UInt32 { UInt32(truncatingIfNeeded: key >> 32) }
        var id: UInt32 { UInt32(truncatingIfNeeded: key) }
    }

    private let sorter: ExternalSorter<Record>
    package private(set) var count = 0

    package init(runPrefix: String, bufferBytes: Int = 32 << 20) {
        sorter = ExternalSorter(runPrefix: runPrefix, bufferBytes: bufferBytes, spillsInBackground: true) { $0.key }
    }

    /// Adds the point with record `id`; ids must be unique.
    package func add(id: UInt32, at coordinate: Coordinate) throws {
        guard count < UInt32.max else { throw ImportError("more than 4 billion points in one level of one import") }
        let (x, y, z) = PointIndex.unitVector(latitude: coordinate.latitude, longitude: coordinate.longitude)
        let (column, row) = PointTiles.cell(x: x, y: y, z: z)
        let tile = UInt64(PointTiles.tileKey(column: column, row: row))
        try sorter.append(
            Record(key: tile << 32 | UInt64(id), cell: PointTiles.localCell(column: column, row: row), x: x, y: y, z: z))
        count += 1
    }

    /// Writes the sort buffer out while the builder waits for `finish` (`ExternalSorter.seal`).
    package func seal() throws { try sorter.seal() }

    /// Builds the tile pages, handing each to `storePage` with its number (its position in the
    /// directory), and returns the directory blob.
    package func finish(storePage: (Int, [UInt8]) throws -> Void) throws -> [UInt8] {
        var tileKeys: [UInt32] = []
        var current: [Record] = []
        try sorter.drain { record in
            if let first = current.first, first.tile != record.tile {
                try storePage(tileKeys.count, Self.page(current))
                tileKeys.append(first.tile)
                current.removeAll(keepingCapacity: true)
            }
            current.append(record)
        }
        if let first = current.first {
            try storePage(tileKeys.count, Self.page(current))
            tileKeys.append(first.tile)
        }
        var writer = ByteWriter(capacity: 8 + tileKeys.count * 4)
        writer.append(UInt32(tileKeys.count))
        writer.append(UInt32(truncatingIfNeeded: count))
        writer.append(contentsOf: tileKeys)
        return writer.bytes
    }

    /// One tile's page: its points grouped by cell, in id order within each (the records come in id order).
    package static func page(_ records: [Record]) -> [UInt8] {
        let order = records.indices.sorted { (records[$0].cell, $0) < (records[$1].cell, $1) }
        var keys: [UInt32] = [], starts: [UInt32] = []
        for (position, i) in order.enumerated() where keys.last != records[i].cell {
            keys.append(records[i].cell)
            starts.append(UInt32(position))
        }
        starts.append(UInt32(records.count))
        var writer = ByteWriter(capacity: 16 + keys.count * 8 + records.count * 28)
        writer.append(UInt32(keys.count))
        writer.append(UInt32(records.count))
        writer.append(contentsOf: keys)
        writer.append(contentsOf: starts)
        writer.align(to: 8)
        for i in order {
            writer.append(records[i].x)
            writer.append(records[i].y)
            writer.append(records[i].z)
        }
        for i in order { writer.append(records[i].id) }
        return writer.bytes
    }
}
