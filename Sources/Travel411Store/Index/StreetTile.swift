import Foundation
import Travel411Core

/// One tile's page of segments, read in place, with a bit per cell saying whether any segment touches it.
// @unchecked Sendable: raw pointers into its own blob and its occupancy bits, never written after init.
final class StreetTile: @unchecked Sendable {
    private let storage: BlobStorage
    private let cellRunStarts: UnsafePointer<UInt32>
    private let runRefStarts: UnsafePointer<UInt32>
    private let refs: UnsafePointer<UInt32>
    private let runBoxes: UnsafePointer<Float>
    private let segments: UnsafePointer<Double>
    private let lineIDs: UnsafePointer<UInt32>
    /// Bit `column % 64` of word `row × wordsPerRow + column / 64` is set when the cell holds segments; a cell's
    /// place among the page's cells is the word's rank (the cells before it) plus the set bits before it.
    private let wordsPerRow: Int
    private let occupancy: UnsafeMutablePointer<UInt64>
    private let ranks: UnsafeMutablePointer<UInt32>

    init(storage: BlobStorage, cellsPerTile: Int) throws {
        guard storage.count >= 16 else { throw IndexFormatError.malformed("street tile header") }
        let cellCount = Int(storage.u32(at: 0)), segmentCount = Int(storage.u32(at: 4)), refCount = Int(storage.u32(at: 8))
        let runCount = Int(storage.u32(at: 12))
        var offset = 16
        let keyOffset = offset
        offset += cellCount * 4
        let cellRunOffset = offset
        offset += (cellCount + 1) * 4
        let runRefOffset = offset
        offset += (runCount + 1) * 4
        let refOffset = offset
        offset += refCount * 4
        let boxOffset = offset
        offset += runCount * 16
        offset = (offset + 7) & ~7
        let segmentOffset = offset
        offset += segmentCount * 32
        let lineOffset = offset
        offset += segmentCount * 4
        guard offset == storage.count else { throw IndexFormatError.malformed("street tile size") }
        let cellKeys = storage.pointer(at: keyOffset, as: UInt32.self)
        let cellRunStarts = storage.pointer(at: cellRunOffset, as: UInt32.self)
        let runRefStarts = storage.pointer(at: runRefOffset, as: UInt32.self)
        let refs = storage.pointer(at: refOffset, as: UInt32.self)
        // Damaged counts must not send a lookup outside the blob: the keys rise within the tile, the starts rise to
        // their arrays' ends.
        func rising(_ starts: UnsafePointer<UInt32>, count: Int, to end: Int) -> Bool {
            starts[0] == 0 && Int(starts[count]) == end && (0..<count).allSatisfy { starts[$0] <= starts[$0 + 1] }
        }
        let cellsInTile = cellsPerTile * cellsPerTile
        guard (0..<cellCount).allSatisfy({ Int(cellKeys[$0]) < cellsInTile && ($0 == 0 || cellKeys[$0 - 1] < cellKeys[$0]) }),
            rising(cellRunStarts, count: cellCount, to: runCount), rising(runRefStarts, count: runCount, to: refCount),
            (0..<refCount).allSatisfy({ Int(refs[$0]) < segmentCount })
        else { throw IndexFormatError.malformed("street tile references") }
        self.storage = storage
        self.cellRunStarts = cellRunStarts
        self.runRefStarts = runRefStarts
        self.refs = refs
        runBoxes = storage.pointer(at: boxOffset, as: Float.self)
        segments = storage.pointer(at: segmentOffset, as: Double.self)
        lineIDs = storage.pointer(at: lineOffset, as: UInt32.self)
        wordsPerRow = (cellsPerTile + 63) / 64
        let wordCount = max(1, cellsPerTile * wordsPerRow)
        occupancy = .allocate(capacity: wordCount)
        occupancy.initialize(repeating: 0, count: wordCount)
        for n in 0..<cellCount {
            let key = Int(cellKeys[n]), column = key % cellsPerTile
            occupancy[(key / cellsPerTile) * wordsPerRow + column / 64] |= 1 << UInt64(column % 64)
        }
        ranks = .allocate(capacity: wordCount)
        var before: UInt32 = 0
        for word in 0..<wordCount {
            ranks.advanced(by: word).initialize(to: before)
            before += UInt32(occupancy[word].nonzeroBitCount)
        }
    }

    deinit {
        occupancy.deallocate()
        ranks.deallocate()
    }

    /// A tile without segments, standing for one that could not be read.
    package static func empty(cellsPerTile: Int) -> StreetTile? {
        var writer = ByteWriter()
        for _ in 0..<6 { writer.append(UInt32(0)) }
        writer.align(to: 8)
        return try? StreetTile(storage: BlobStorage(bytes: writer.bytes), cellsPerTile: cellsPerTile)
    }

    /// Each column of `columns` in the row (all inside the tile) whose cell holds segments, west to east.
    @inline(__always) func forEachOccupiedCell(row: Int, columns: ClosedRange<Int>, _ body: (Int) -> Void) {
        var word = columns.lowerBound >> 6
        while word <= columns.upperBound >> 6 {
            var bits = occupancy(row: row, word: word, columns: columns)
            while bits != 0 {
                body(word << 6 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
            word += 1
        }
    }

    /// One occupancy word of a row (columns 64 × `word` on), keeping the bits of `columns` only.
    @inline(__always) private func occupancy(row: Int, word: Int, columns: ClosedRange<Int>) -> UInt64 {
        var bits = occupancy[row * wordsPerRow + word]
        let low = max(columns.lowerBound - word << 6, 0), high = min(columns.upperBound - word << 6, 63)
        bits &= ~0 << UInt64(low)
        if high < 63 { bits &= (1 << UInt64(high + 1)) - 1 }
        return bits
    }

    /// The occupancy bits of `columns` (inside the tile) in a row, the first column's as bit 0 (at most 64).
    @inline(__always) func occupancy(row: Int, columns: ClosedRange<Int>) -> UInt64 {
        var result: UInt64 = 0
        var word = columns.lowerBound >> 6
        while word <= columns.upperBound >> 6 {
            let bits = occupancy(row: row, word: word, columns: columns)
            let shift = word << 6 - columns.lowerBound
            result |= shift >= 0 ? bits << UInt64(shift) : bits >> UInt64(-shift)
            word += 1
        }
        return result
    }

    /// The runs of segments touching the cell; empty for a cell without any.
    @inline(__always) private func runs(row: Int, column: Int) -> Range<Int> {
        let word = row * wordsPerRow + column >> 6, bit = UInt64(column & 63)
        let bits = occupancy[word]
        guard bits >> bit & 1 != 0 else { return 0..<0 }
        let position = Int(ranks[word]) + (bits & ((1 << bit) - 1)).nonzeroBitCount
        return Int(cellRunStarts[position])..<Int(cellRunStarts[position + 1])
    }

    /// Each run of the cell: its line and first segment.
    func forEachRunStart(row: Int, column: Int, _ body: (UInt32, Double, Double, Double, Double) -> Void) {
        for run in runs(row: row, column: column) {
            let start = Int(runRefStarts[run])
            guard start < Int(runRefStarts[run + 1]) else { continue }
            let s = Int(refs[start])
            let segment = segments + s * 4
            body(lineIDs[s], segment[0], segment[1], segment[2], segment[3])
        }
    }

    /// The segments of `line`'s runs in the cell.
    func forEachSegment(ofLine line: UInt32, row: Int, column: Int, _ body: (Double, Double, Double, Double) -> Void) {
        for run in runs(row: row, column: column) {
            let start = Int(runRefStarts[run]), end = Int(runRefStarts[run + 1])
            // A run is one line's: its first segment's line is the run's.
            guard start < end, lineIDs[Int(refs[start])] == line else { continue }
            for r in start..<end {
                let segment = segments + Int(refs[r]) * 4
                body(segment[0], segment[1], segment[2], segment[3])
            }
        }
    }

    /// The segments of the cell's runs whose box spans the latitude `y` (the others cannot cross a ray along it).
    func forEachSegment(row: Int, column: Int, spanning y: Double, _ body: (Double, Double, Double, Double, UInt32) -> Void) {
        for run in runs(row: row, column: column) {
            let box = runBoxes + run * 4
            // The runs rise by their southern edge: once one starts north of `y`, so do the rest.
            if Double(box[1]) > y { break }
            guard Double(box[3]) > y else { continue }
            for r in Int(runRefStarts[run])..<Int(runRefStarts[run + 1]) {
                let s = Int(refs[r])
                let segment = segments + s * 4
                body(segment[0], segment[1], segment[2], segment[3], lineIDs[s])
            }
        }
    }

    /// Each run whose box is nearer than the best so far, segment by segment: a building's outline farther
    /// than that is passed over with one test instead of one per segment.
    @inline(__always) func search(row: Int, column: Int, _ search: inout NearestSearch, _ accept: (UInt32) -> Bool) {
        for run in runs(row: row, column: column) {
            let box = runBoxes + run * 4
            // The runs rise by their southern edge: once one starts farther north than the best, so do the rest.
            let north = (Double(box[1]) - search.y) * search.metresPerDegreeY
            if north > 0, north * north > search.bestSquared { break }
            // A run is one line's: its first segment's line is the run's.
            if let only = search.onlyLine {
                let start = Int(runRefStarts[run])
                if start >= Int(runRefStarts[run + 1]) || lineIDs[Int(refs[start])] != only { continue }
            }
            if search.pointsOnly {
                let start = Int(runRefStarts[run])
                guard start + 1 == Int(runRefStarts[run + 1]) else { continue }
                let segment = segments + Int(refs[start]) * 4
                guard segment[0] == segment[2], segment[1] == segment[3] else { continue }
            }
            guard search.mayImprove(minX: Double(box[0]), minY: Double(box[1]), maxX: Double(box[2]), maxY: Double(box[3])) else {
                continue
            }
            for r in Int(runRefStarts[run])..<Int(runRefStarts[run + 1]) {
                let s = Int(refs[r])
                if lineIDs[s] == search.refused { break }
                let segment = segments + s * 4
                search.consider(ax: segment[0], ay: segment[1], bx: segment[2], by: segment[3], id: lineIDs[s], accept: accept)
            }
        }
    }
}
