import Foundation
import Travel411Core

/// The stored form of a street tile's page (`StreetTile` reads the expanded form, which `StreetTilesBuilder` lays
/// out): the same page, its numbers as variable-length integers and its coordinates as 1e-7° steps from the point
/// before. OpenStreetMap stores positions in 1e-7° steps, so those come back as the very same doubles; a point that
/// is not on that grid (one the import computed: a building's point on its surface, a widened box, a shapefile's
/// vertex) is stored as its two doubles, so that every page decodes to exactly the bytes it was built as and no
/// answer moves. The runs' boxes are not stored: they are computed again from the segments, as the builder did.
///
/// Layout: varints cellCount, segmentCount, refCount, runCount; the cells' keys (the first, then each step above
/// the one before less one); each cell's number of runs; each run's number of refs; each ref as the zigzag step
/// from the ref before plus one; then per segment a tag byte (`Tag`), the zigzag step from the line before when
/// its line differs, and its points: a zigzag pair of 1e-7° steps from the last point stored on the grid, or two
/// little-endian doubles.
package enum StreetTileCoding {
    private struct Tag: OptionSet {
        let rawValue: UInt8
        /// The line differs from the segment before's; its step follows.
        static let newLine = Tag(rawValue: 1)
        /// The first point is the segment before's second, bit for bit.
        static let continues = Tag(rawValue: 2)
        /// The first point is stored as two doubles.
        static let firstRaw = Tag(rawValue: 4)
        /// The second point is the first (a point of interest).
        static let single = Tag(rawValue: 8)
        /// The second point is stored as two doubles.
        static let secondRaw = Tag(rawValue: 16)
    }

    static let steps = 10_000_000.0

    /// The 1e-7° step count of `value` when dividing it by 1e7 gives back the same double (as libosmium computes a
    /// coordinate from the PBF's integer), else nil.
    @inline(__always) static func gridSteps(_ value: Double) -> Int64? {
        guard value.isFinite, abs(value) <= 1000 else { return nil }
        let count = Int64((value * steps).rounded())
        return (Double(count) / steps).bitPattern == value.bitPattern ? count : nil
    }

    /// The stored form of an expanded page.
    package static func encode(_ page: [UInt8]) -> [UInt8] {
        page.withUnsafeBytes { encode(expanded: $0) }
    }

    private static func encode(expanded page: UnsafeRawBufferPointer) -> [UInt8] {
        guard page.count >= 16 else { return [] }
        func u32(_ offset: Int) -> UInt32 { UInt32(littleEndian: page.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        func f64(_ offset: Int) -> Double {
            Double(bitPattern: UInt64(littleEndian: page.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        }
        let layout = Layout(cellCount: Int(u32(0)), segmentCount: Int(u32(4)), refCount: Int(u32(8)), runCount: Int(u32(12)))
        var out = VarintWriter(capacity: page.count / 3)
        for count in [layout.cellCount, layout.segmentCount, layout.refCount, layout.runCount] { out.append(UInt64(count)) }
        var previous: Int64 = -1
        for n in 0..<layout.cellCount {
            let key = Int64(u32(layout.keys + n * 4))
            out.append(UInt64(key - previous - 1))
            previous = key
        }
        for n in 0..<layout.cellCount { out.append(UInt64(u32(layout.cellRunStarts + n * 4 + 4) - u32(layout.cellRunStarts + n * 4))) }
        for n in 0..<layout.runCount { out.append(UInt64(u32(layout.runRefStarts + n * 4 + 4) - u32(layout.runRefStarts + n * 4))) }
        previous = -1
        for n in 0..<layout.refCount {
            let ref = Int64(u32(layout.refs + n * 4))
            out.appendSigned(ref - previous - 1)
            previous = ref
        }
        var cursor = GridCursor()
        var line: Int64 = 0, lastX = Double.nan, lastY = Double.nan
        for s in 0..<layout.segmentCount {
            let base = layout.segments + s * 32
            let ax = f64(base), ay = f64(base + 8), bx = f64(base + 16), by = f64(base + 24)
            let segmentLine = Int64(u32(layout.lineIDs + s * 4))
            let first = gridSteps(ax).flatMap { x in gridSteps(ay).map { (x, $0) } }
            let second = gridSteps(bx).flatMap { x in gridSteps(by).map { (x, $0) } }
            var tag: Tag = []
            if segmentLine != line { tag.insert(.newLine) }
            let continues = ax.bitPattern == lastX.bitPattern && ay.bitPattern == lastY.bitPattern
            let single = bx.bitPattern == ax.bitPattern && by.bitPattern == ay.bitPattern
            if continues { tag.insert(.continues) } else if first == nil { tag.insert(.firstRaw) }
            if single { tag.insert(.single) } else if second == nil { tag.insert(.secondRaw) }
            out.bytes.append(tag.rawValue)
            if tag.contains(.newLine) { out.appendSigned(segmentLine - line) }
            line = segmentLine
            if !continues { cursor.write(first, x: ax, y: ay, to: &out) }
            if !single { cursor.write(second, x: bx, y: by, to: &out) }
            lastX = bx
            lastY = by
        }
        return out.bytes
    }

    /// Where each array of the expanded page starts (`StreetTile`'s layout).
    private struct Layout {
        let cellCount: Int, segmentCount: Int, refCount: Int, runCount: Int
        var keys: Int { 16 }
        var cellRunStarts: Int { keys + cellCount * 4 }
        var runRefStarts: Int { cellRunStarts + (cellCount + 1) * 4 }
        var refs: Int { runRefStarts + (runCount + 1) * 4 }
        var boxes: Int { refs + refCount * 4 }
        var segments: Int { (boxes + runCount * 16 + 7) & ~7 }
        var lineIDs: Int { segments + segmentCount * 32 }
        var size: Int { lineIDs + segmentCount * 4 }
    }

    /// The last point stored on the grid, from which the next one is a step.
    private struct GridCursor {
        var x: Int64 = 0, y: Int64 = 0

        mutating func write(_ steps: (Int64, Int64)?, x valueX: Double, y valueY: Double, to out: inout VarintWriter) {
            guard let (stepX, stepY) = steps else {
                withUnsafeBytes(of: valueX.bitPattern.littleEndian) { out.bytes.append(contentsOf: $0) }
                withUnsafeBytes(of: valueY.bitPattern.littleEndian) { out.bytes.append(contentsOf: $0) }
                return
            }
            out.appendSigned(stepX - x)
            out.appendSigned(stepY - y)
            x = stepX
            y = stepY
        }

        mutating func read(raw: Bool, from input: inout VarintReader) throws -> (Double, Double) {
            if raw { return (try input.double(), try input.double()) }
            x = x &+ (try input.signed())
            y = y &+ (try input.signed())
            return (Double(x) / StreetTileCoding.steps, Double(y) / StreetTileCoding.steps)
        }
    }

    /// The expanded page of a stored one, in memory of its own; a damaged one throws `IndexFormatError`, and the
    /// counts it claims are checked against its size before anything is allocated.
    package static func decode(_ stored: UnsafeRawBufferPointer) throws -> BlobStorage {
        var input = VarintReader(stored)
        let counts = try (0..<4).map { _ in try input.count() }
        let layout = Layout(cellCount: counts[0], segmentCount: counts[1], refCount: counts[2], runCount: counts[3])
        // Every key, run count, ref and segment takes at least a byte.
        guard 2 * layout.cellCount + layout.runCount + layout.refCount + layout.segmentCount <= input.remaining else {
            throw IndexFormatError.malformed("street tile counts")
        }
        return try BlobStorage(count: layout.size) { page in
            page.initializeMemory(as: UInt8.self, repeating: 0, count: layout.size)
            func put(_ value: UInt32, _ offset: Int) { page.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self) }
            for (n, count) in counts.enumerated() { put(UInt32(count), n * 4) }
            var key: Int64 = -1
            for n in 0..<layout.cellCount {
                key = key &+ Int64(truncatingIfNeeded: try input.value()) &+ 1
                put(UInt32(truncatingIfNeeded: key), layout.keys + n * 4)
            }
            try decodeStarts(&input, count: layout.cellCount, total: layout.runCount, at: layout.cellRunStarts, put)
            try decodeStarts(&input, count: layout.runCount, total: layout.refCount, at: layout.runRefStarts, put)
            var ref: Int64 = -1
            let refs = (page + layout.refs).assumingMemoryBound(to: UInt32.self)
            for n in 0..<layout.refCount {
                ref = ref &+ (try input.signed()) &+ 1
                guard ref >= 0, ref < layout.segmentCount else { throw IndexFormatError.malformed("street tile references") }
                refs[n] = UInt32(ref)
            }
            let segments = (page + layout.segments).assumingMemoryBound(to: Double.self)
            try decodeSegments(&input, count: layout.segmentCount, into: segments, lines: page + layout.lineIDs)
            guard input.remaining == 0 else { throw IndexFormatError.malformed("street tile size") }
            writeBoxes(layout, page: page, refs: refs, segments: segments)
        }
    }

    /// Counts per item back to rising starts from 0, which must end at `total`.
    private static func decodeStarts(
        _ input: inout VarintReader, count: Int, total: Int, at offset: Int, _ put: (UInt32, Int) -> Void
    ) throws {
        var start = 0
        put(0, offset)
        for n in 0..<count {
            let items = try input.count()
            guard items <= total - start else { throw IndexFormatError.malformed("street tile runs") }
            start += items
            put(UInt32(start), offset + (n + 1) * 4)
        }
        guard start == total else { throw IndexFormatError.malformed("street tile runs") }
    }

    private static func decodeSegments(
        _ input: inout VarintReader, count: Int, into segments: UnsafeMutablePointer<Double>, lines: UnsafeMutableRawPointer
    ) throws {
        var cursor = GridCursor()
        var line: Int64 = 0, lastX = Double.nan, lastY = Double.nan
        for s in 0..<count {
            let tag = Tag(rawValue: try input.byte())
            guard tag.rawValue < 32 else { throw IndexFormatError.malformed("street tile segment") }
            if tag.contains(.newLine) { line = line &+ (try input.signed()) }
            lines.storeBytes(of: UInt32(truncatingIfNeeded: line).littleEndian, toByteOffset: s * 4, as: UInt32.self)
            let (ax, ay) = tag.contains(.continues) ? (lastX, lastY) : try cursor.read(raw: tag.contains(.firstRaw), from: &input)
            let (bx, by) = tag.contains(.single) ? (ax, ay) : try cursor.read(raw: tag.contains(.secondRaw), from: &input)
            let segment = segments + s * 4
            segment[0] = ax
            segment[1] = ay
            segment[2] = bx
            segment[3] = by
            lastX = bx
            lastY = by
        }
    }

    /// Each run's box over its segments, rounded outwards to floats, as `StreetTilesBuilder` computed it.
    private static func writeBoxes(
        _ layout: Layout, page: UnsafeMutableRawPointer, refs: UnsafeMutablePointer<UInt32>, segments: UnsafeMutablePointer<Double>
    ) {
        let starts = (page + layout.runRefStarts).assumingMemoryBound(to: UInt32.self)
        let boxes = (page + layout.boxes).assumingMemoryBound(to: Float.self)
        for run in 0..<layout.runCount {
            var box = BoundingBox.empty
            for r in Int(starts[run])..<Int(starts[run + 1]) {
                let segment = segments + Int(refs[r]) * 4
                box.extend(x: segment[0], y: segment[1])
                box.extend(x: segment[2], y: segment[3])
            }
            boxes[run * 4] = floatBelow(box.minX)
            boxes[run * 4 + 1] = floatBelow(box.minY)
            boxes[run * 4 + 2] = -floatBelow(-box.maxX)
            boxes[run * 4 + 3] = -floatBelow(-box.maxY)
        }
    }

    /// The largest `Float` not above `value`: a run's box rounded outwards passes every segment inside it.
    package static func floatBelow(_ value: Double) -> Float {
        let rounded = Float(value)
        return Double(rounded) > value ? rounded.nextDown : rounded
    }
}

/// Unsigned LEB128 integers, and signed ones zigzagged into them.
struct VarintWriter {
    var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func append(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func appendSigned(_ value: Int64) { append(UInt64(bitPattern: value << 1 ^ value >> 63)) }
}

/// Reads what `VarintWriter` wrote, never past the end of its bytes.
struct VarintReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    /// What the bytes are, for the message when they are damaged.
    private let what: StaticString

    init(_ bytes: UnsafeRawBufferPointer, what: StaticString = "street tile") {
        self.bytes = bytes
        self.what = what
    }

    var remaining: Int { bytes.count - offset }

    mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw IndexFormatError.malformed("\(what) cut short") }
        offset += 1
        return bytes[offset - 1]
    }

    mutating func value() throws -> UInt64 {
        var result: UInt64 = 0, shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 64 else { throw IndexFormatError.malformed("\(what) number") }
            result |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    mutating func signed() throws -> Int64 {
        let raw = try value()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// A count, which cannot exceed the bytes left (each counted item takes one at least).
    mutating func count() throws -> Int {
        let raw = try value()
        guard raw <= UInt64(bytes.count) else { throw IndexFormatError.malformed("\(what) counts") }
        return Int(raw)
    }

    /// The next `count` bytes, in place.
    mutating func bytes(_ count: Int) throws -> UnsafeRawBufferPointer {
        guard count >= 0, remaining >= count else { throw IndexFormatError.malformed("\(what) cut short") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }

    mutating func double() throws -> Double {
        guard remaining >= 8 else { throw IndexFormatError.malformed("\(what) cut short") }
        defer { offset += 8 }
        return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }
}
