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

    package init(initialCapacity: Int) { self.initialCapacity = initialCapacity }

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

    package init(source: any BatchByteSource, inputName: String, blockSize: Int, maximumRecordBytes: Int, pool: BufferPool) {
        self.source = source
        self.inputName = inputName
        self.blockSize = blockSize
        self.maximumRecordBytes = maximumRecordBytes
        self.pool = pool
        buffer = pool.take()
    }

    /// Reads until at least `target` bytes are buffered or the input ends.
    package func fill(to target: Int) throws {
        buffer.reserve(target - buffer.count)
        while buffer.count < target && !isAtEndOfInput {
            let count = try source.read(
                into: UnsafeMutableRawBufferPointer(start: buffer.base + buffer.count, count: buffer.capacity - buffer.count))
            if count > 0 {
                buffer.count += count
            } else {
                isAtEndOfInput = true
            }
        }
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
            try fill(to: target)
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
            if let boundary = lastBoundary, buffer.count >= blockSize {
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
