import Foundation
import Travel411Core

/// A run of whole records handed to a worker.
struct InputChunk {
    let sequence: Int
    /// Owns the bytes; the records are `buffer.base[0..<length]`.
    let buffer: GrowableByteArray
    let length: Int
    /// Framer units (lines, or features) before this chunk in the input.
    let unitsBefore: Int
}

/// Reuses large buffers between chunks so steady-state work neither allocates nor page-faults.
// @unchecked Sendable: `buffers` is only touched under `lock`; a buffer belongs to one thread between take and give back.
final class BufferPool: @unchecked Sendable {
    private let lock = NSLock()
    private var buffers: [GrowableByteArray] = []
    private let initialCapacity: Int

    init(initialCapacity: Int) { self.initialCapacity = initialCapacity }

    func take() -> GrowableByteArray {
        lock.lock()
        let buffer = buffers.popLast()
        lock.unlock()
        if let buffer {
            buffer.removeAll()
            return buffer
        }
        return GrowableByteArray(capacity: initialCapacity)
    }

    func recycle(_ buffer: GrowableByteArray) {
        lock.lock()
        buffers.append(buffer)
        lock.unlock()
    }
}

/// Reads a byte source in large blocks and cuts them into chunks that end on record
/// boundaries. The partial record at a block's end moves to the next block.
final class ChunkSource {
    let inputName: String
    private let source: any BatchByteSource
    private let blockSize: Int
    /// A record longer than this means a runaway quote or bracket; stop rather than buffer the file.
    private let maximumRecordBytes: Int
    private let pool: BufferPool

    /// The longest a row read from a pipe waits for more rows to join its chunk.
    static let maximumWait = 0.01

    /// Unconsumed input, starting at offset 0.
    private(set) var buffer: GrowableByteArray
    private(set) var isAtEndOfInput = false
    private var scannedUpTo = 0
    private var lastBoundary: Int?
    private var unitsToBoundary = 0
    private var unitsScanned = 0
    /// Units in everything consumed before `buffer`'s first byte.
    private(set) var unitsBefore = 0
    private var nextSequence = 0

    init(source: any BatchByteSource, inputName: String, blockSize: Int, maximumRecordBytes: Int, pool: BufferPool) {
        self.source = source
        self.inputName = inputName
        self.blockSize = blockSize
        self.maximumRecordBytes = maximumRecordBytes
        self.pool = pool
        buffer = pool.take()
    }

    /// Reads until at least `target` bytes are buffered or the input ends. With `untilIdle`, also stops
    /// after a read when no more input is waiting, or when reading has taken `maximumWait` (a writer
    /// trickling rows), and returns true then: the rows so far are answered now. At least one read
    /// waits for input, so an idle source is never polled in a loop.
    @discardableResult
    package func fill(to target: Int, untilIdle: Bool = false) throws -> Bool {
        buffer.reserve(target - buffer.count)
        var firstRead: Double?
        while buffer.count < target && !isAtEndOfInput {
            let count = try source.read(
                into: UnsafeMutableRawBufferPointer(start: buffer.base + buffer.count, count: buffer.capacity - buffer.count))
            if count > 0 {
                buffer.count += count
                guard untilIdle && buffer.count < target else { continue }
                let now = ProcessInfo.processInfo.systemUptime
                if now - (firstRead ?? now) >= Self.maximumWait || !source.hasInputWaiting() { return true }
                if firstRead == nil { firstRead = now }
            } else {
                isAtEndOfInput = true
            }
        }
        return false
    }

    /// Reads until the first non-blank line is whole (so that the format and the header can be told
    /// from it), `limit` bytes are buffered or the input ends; without waiting for more when the
    /// writer pauses after that line. A first line that opens a JSON object without closing it is
    /// GeoJSON written over several lines, read up to `limit` as before.
    func fillFirstLine(limit: Int) throws {
        var target = min(limit, 64 << 10)
        while true {
            try fill(to: target, untilIdle: true)
            if isAtEndOfInput || buffer.count >= limit || Self.holdsWholeFirstLine(buffer.bytes) { return }
            target = min(limit, buffer.count + (64 << 10))
        }
    }

    private static func holdsWholeFirstLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var first: UInt8?
        var last: UInt8?
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if let first { return first != UInt8(ascii: "{") || last == UInt8(ascii: "}") }
                continue
            }
            if JSONScanner.isWhitespace(byte) { continue }
            if first == nil { first = byte }
            last = byte
        }
        return false
    }

    /// Drops a prefix (byte order mark, header, GeoJSON preamble) before framing starts.
    package func discard(prefix length: Int, units: Int) {
        precondition(scannedUpTo == 0, "discard only before chunking")
        buffer.removeFirst(length)
        unitsBefore += units
    }

    /// The next chunk of whole records, or nil at the end of the input.
    func nextChunk(framer: inout some RecordFramer) throws -> InputChunk? {
        var target = blockSize
        while true {
            // Rows the header's reader left unscanned are answered at once if no more are coming yet.
            let isIdle = try (scannedUpTo < buffer.count && !source.hasInputWaiting()) || fill(to: target, untilIdle: true)
            let scan = framer.scan(buffer.base, from: scannedUpTo, to: buffer.count)
            if let boundary = scan.lastBoundary {
                lastBoundary = boundary
                unitsToBoundary = unitsScanned + scan.unitsToBoundary
            }
            unitsScanned += scan.units
            scannedUpTo = buffer.count

            if framer.isFinished {
                // Whatever follows the records (GeoJSON's closing brackets) is not data.
                let length = lastBoundary ?? 0
                isAtEndOfInput = true
                buffer.count = length
                scannedUpTo = length
            }
            if isAtEndOfInput {
                guard buffer.count > 0 else { return nil }
                return cut(at: buffer.count, units: unitsScanned)
            }
            if let boundary = lastBoundary, buffer.count >= blockSize || isIdle {
                return cut(at: boundary, units: unitsToBoundary)
            }
            if buffer.count >= maximumRecordBytes {
                throw BatchError(
                    "\(inputName): a record starting near line or feature \(unitsBefore + 1) is longer than \(maximumRecordBytes >> 20) MiB; is a closing quote or bracket missing?"
                )
            }
            target = buffer.count + blockSize
        }
    }

    private func cut(at boundary: Int, units: Int) -> InputChunk {
        let next = pool.take()
        next.append(buffer.base + boundary, count: buffer.count - boundary)
        let chunk = InputChunk(sequence: nextSequence, buffer: buffer, length: boundary, unitsBefore: unitsBefore)
        nextSequence += 1
        buffer = next
        unitsBefore += units
        unitsScanned -= units
        scannedUpTo -= boundary
        lastBoundary = nil
        unitsToBoundary = 0
        return chunk
    }

    /// Hands the current buffer back (end of run).
    func close() { pool.recycle(buffer) }
}
