import Dispatch
import Foundation
import Travel411Core
import Travel411Store
import Travel411StoreWriters

/// Builds the pages of `StreetTiles` from any number of lines in bounded memory: each segment becomes a
/// record per tile it touches, sorted by tile on disk (`ExternalSorter`), and `finish` builds and hands
/// over one tile's page at a time. Memory is the sorter's buffer and the largest tile, whatever the
/// number of lines: 2 million roads make about 20 million segment records.
final class StreetTilesBuilder {
    /// One segment in one tile. `key` sorts by tile, then by the order segments were added, so that a
    /// tile's segments keep that order and the pages do not depend on where the sort's runs were cut.
    struct Record {
        var key: UInt64
        var line: UInt32
        var padding: UInt32 = 0
        var ax: Double, ay: Double, bx: Double, by: Double

        var tile: UInt32 { UInt32(truncatingIfNeeded: key >> 32) }
    }

    private let sorter: ExternalSorter<Record>
    private var segmentCount: UInt32 = 0
    private var bounds = BoundingBox.empty

    let grid: TileGrid

    init(runPrefix: String, grid: TileGrid = .streets, bufferBytes: Int = 32 << 20) {
        self.grid = grid
        sorter = ExternalSorter(runPrefix: runPrefix, bufferBytes: bufferBytes, spillsInBackground: true) { $0.key }
    }

    func add(line id: UInt32, lines: [[Point2D]]) throws {
        for line in lines where line.count >= 2 {
            for i in 0..<(line.count - 1) {
                let a = line[i], b = line[i + 1]
                guard segmentCount < UInt32.max else { throw ImportError("more than 4 billion street segments in one import") }
                let sequence = UInt64(segmentCount)
                segmentCount += 1
                bounds.extend(x: a.x, y: a.y)
                bounds.extend(x: b.x, y: b.y)
                let columns = grid.cellColumn(min(a.x, b.x))...grid.cellColumn(max(a.x, b.x))
                let rows = grid.cellRow(min(a.y, b.y))...grid.cellRow(max(a.y, b.y))
                let perTile = grid.cellsPerTile
                for tileRow in (rows.lowerBound / perTile)...(rows.upperBound / perTile) {
                    for tileColumn in (columns.lowerBound / perTile)...(columns.upperBound / perTile) {
                        let tile = UInt64(tileRow * TileGrid.tileColumns + tileColumn)
                        try sorter.append(Record(key: tile << 32 | sequence, line: id, ax: a.x, ay: a.y, bx: b.x, by: b.y))
                    }
                }
            }
        }
    }

    /// Writes the sort buffer out while the builder waits for `finish` (`ExternalSorter.seal`).
    func seal() throws { try sorter.seal() }

    /// How many segment records a batch of tiles holds at least (a tile is never cut): enough that the cores
    /// building a batch's pages share its work, few enough that the batches waiting take a few MB.
    static let batchRecords = 1 << 16

    /// Builds the tile pages, handing each to `storePage` in its stored form (`StreetTileCoding`, then `coding`,
    /// e.g. deflated) with its number (its position in the directory), and returns the directory blob. The runs are
    /// merged on this thread while another takes the tiles a batch at a time, builds their pages on every core,
    /// and stores them (`OrderedConsumerThread`), in the same order: each page depends on its tile's records alone.
    package func finish(
        coding: @escaping @Sendable ([UInt8]) -> [UInt8] = { $0 }, storePage: @escaping (Int, [UInt8]) throws -> Void
    ) throws -> [UInt8] {
        var tileKeys: [UInt32] = []
        var current: [Record] = []
        var batch: [[Record]] = []
        var batched = 0
        var stored = 0
        let grid = self.grid
        let pages = OrderedConsumerThread<[[Record]]>(name: "travel411 tile pages", batchItems: 1, queuedBatches: 2) { tiles in
            for blob in Self.storedPages(tiles, grid: grid, coding: coding) {
                try storePage(stored, blob)
                stored += 1
            }
        }
        /// Queues the tile being gathered, and the batch once it is full (or `last`).
        func queue(last: Bool) throws {
            if let first = current.first {
                tileKeys.append(first.tile)
                batched += current.count
                batch.append(current)
                current = []
            }
            guard last || batched >= Self.batchRecords, !batch.isEmpty else { return }
            guard pages.send(batch) else { throw PagesStopped() }
            batch = []
            batched = 0
        }
        do {
            try sorter.drain { record in
                if let first = current.first, first.tile != record.tile { try queue(last: false) }
                current.append(record)
            }
            try queue(last: true)
        } catch {
            // The pages' own error, which stopped the merge, is the one to report.
            try pages.finish()
            throw error
        }
        try pages.finish()
        var box = bounds
        if box.isEmpty { box = BoundingBox(minX: 0, minY: 0, maxX: -1, maxY: -1) }
        var writer = ByteWriter(capacity: 40 + tileKeys.count * 4)
        writer.append(UInt32(tileKeys.count))
        writer.append(UInt32(0))
        for value in [box.minX, box.minY, box.maxX, box.maxY] { writer.append(value) }
        writer.append(contentsOf: tileKeys)
        return writer.bytes
    }

    /// The stored pages of a batch of tiles, in its order, built on every core.
    private static func storedPages(_ tiles: [[Record]], grid: TileGrid, coding: @Sendable ([UInt8]) -> [UInt8]) -> [[UInt8]] {
        var blobs = [[UInt8]](repeating: [], count: tiles.count)
        blobs.withUnsafeMutableBufferPointer { output in
            let output = DisjointSlots(output)
            DispatchQueue.concurrentPerform(iterations: tiles.count) { i in
                output[i] = coding(StreetTileCoding.encode(page(tiles[i], grid: grid)))
            }
        }
        return blobs
    }

    /// One tile's page: its segments in the order they were added, and for each cell of the tile that
    /// they touch, the segments touching it, in runs of one line each with the run's box (`StreetTile`).
    static func page(_ records: [Record], grid: TileGrid) -> [UInt8] {
        guard let tile = records.first?.tile else { return [] }
        let perTile = grid.cellsPerTile
        let tileRow = Int(tile) / TileGrid.tileColumns, tileColumn = Int(tile) % TileGrid.tileColumns
        let rowRange = (tileRow * perTile)...(tileRow * perTile + perTile - 1)
        let columnRange = (tileColumn * perTile)...(tileColumn * perTile + perTile - 1)
        var cells = [[UInt32]](repeating: [], count: perTile * perTile)
        for (s, r) in records.enumerated() {
            let columns = grid.cellColumn(min(r.ax, r.bx))...grid.cellColumn(max(r.ax, r.bx))
            let rows = grid.cellRow(min(r.ay, r.by))...grid.cellRow(max(r.ay, r.by))
            let clampedRows = rows.clamped(to: rowRange), clampedColumns = columns.clamped(to: columnRange)
            for row in clampedRows {
                for column in clampedColumns {
                    cells[Int(grid.localCell(cellColumn: column, cellRow: row))].append(UInt32(s))
                }
            }
        }
        let keys = cells.indices.filter { !cells[$0].isEmpty }
        // A cell's segments in runs of one line (a building's outline, a way's stretch), each with its box, the
        // runs from south to north by their boxes' southern edge (as stored), so that a search stops at the
        // first run that starts beyond its reach.
        var cellRunStarts: [UInt32] = [0], runRefStarts: [UInt32] = [], runBoxes: [BoundingBox] = [], refs: [UInt32] = []
        for key in keys {
            var runs: [(refs: ArraySlice<UInt32>, box: BoundingBox)] = []
            let cell = cells[key]
            var start = 0
            while start < cell.count {
                let line = records[Int(cell[start])].line
                var end = start, box = BoundingBox.empty
                while end < cell.count, records[Int(cell[end])].line == line {
                    let r = records[Int(cell[end])]
                    box.extend(x: r.ax, y: r.ay)
                    box.extend(x: r.bx, y: r.by)
                    end += 1
                }
                runs.append((cell[start..<end], box))
                start = end
            }
            let order = runs.indices.sorted { a, b in
                let southA = Self.floatBelow(runs[a].box.minY), southB = Self.floatBelow(runs[b].box.minY)
                return southA != southB ? southA < southB : a < b
            }
            for run in order {
                runRefStarts.append(UInt32(refs.count))
                runBoxes.append(runs[run].box)
                refs.append(contentsOf: runs[run].refs)
            }
            cellRunStarts.append(UInt32(runBoxes.count))
        }
        let refCount = refs.count
        runRefStarts.append(UInt32(refCount))
        var writer = ByteWriter(
            capacity: 24 + keys.count * 8 + runBoxes.count * 20 + refCount * 4 + records.count * 36 + 8)
        writer.append(UInt32(keys.count))
        writer.append(UInt32(records.count))
        writer.append(UInt32(refCount))
        writer.append(UInt32(runBoxes.count))
        for key in keys { writer.append(UInt32(key)) }
        writer.append(contentsOf: cellRunStarts)
        writer.append(contentsOf: runRefStarts)
        writer.append(contentsOf: refs)
        // Rounded outwards, so that a box test passes every segment inside it.
        for box in runBoxes {
            for value in [Self.floatBelow(box.minX), Self.floatBelow(box.minY), -Self.floatBelow(-box.maxX), -Self.floatBelow(-box.maxY)] {
                writer.append(value)
            }
        }
        writer.align(to: 8)
        for r in records { for value in [r.ax, r.ay, r.bx, r.by] { writer.append(value) } }
        for r in records { writer.append(r.line) }
        return writer.bytes
    }

    /// Stops the merge once storing a page has failed; `finish` reports that failure instead.
    private struct PagesStopped: Error {}

    /// The largest `Float` not above `value`, as the page's reader computes the runs' boxes again.
    static func floatBelow(_ value: Double) -> Float { StreetTileCoding.floatBelow(value) }
}
