import Foundation
import Travel411Core

/// Rows and flagged rows in some part of the output.
struct RowCounts {
    package var rows = 0
    var errors = 0

    static func += (lhs: inout RowCounts, rhs: RowCounts) {
        lhs.rows += rhs.rows
        lhs.errors += rhs.errors
    }
}

/// Turns one chunk of input records into output rows. One instance per worker thread, so it may
/// keep scratch state; it must write exactly one output row per input record.
protocol ChunkProcessor: AnyObject {
    func process(_ chunk: InputChunk, into output: GrowableByteArray) -> RowCounts
}

/// Reads chunks on the calling thread, processes them on `jobs` worker threads and writes the
/// results in input order from a writer thread. At most `maximumChunksInFlight` chunks exist
/// between reading and writing, which bounds memory whatever the input size.
final class ChunkPipeline {
    private let jobs: Int
    private let maximumChunksInFlight: Int
    private let output: OutputWriter
    private let makeProcessor: () -> any ChunkProcessor
    private let progress: (@Sendable (RowCounts) -> Void)?
    let outputPool: BufferPool

    init(
        jobs: Int, output: OutputWriter, outputBufferCapacity: Int, progress: (@Sendable (RowCounts) -> Void)?,
        makeProcessor: @escaping () -> any ChunkProcessor
    ) {
        self.jobs = max(1, jobs)
        // One chunk per worker, one being read and one being written: more only held output waiting
        // its turn (as fast on 2 cores, and 6 MB less on 8).
        self.maximumChunksInFlight = self.jobs + 2
        self.output = output
        self.progress = progress
        self.makeProcessor = makeProcessor
        self.outputPool = BufferPool(initialCapacity: outputBufferCapacity)
    }

    func run(source: ChunkSource, framer: inout some RecordFramer, inputPool: BufferPool) throws -> RowCounts {
        let slots = DispatchSemaphore(value: maximumChunksInFlight)
        let work = WorkQueue<InputChunk>()
        let results = OrderedResults()
        let threads = DispatchGroup()

        for _ in 0..<jobs {
            let processor = ThreadHandoff(value: makeProcessor())
            let outputPool = self.outputPool
            threads.enter()
            let worker = Thread {
                while let chunk = work.pop() {
                    let buffer = outputPool.take()
                    let counts = processor.value.process(chunk, into: buffer)
                    inputPool.recycle(chunk.buffer)
                    results.deliver(sequence: chunk.sequence, buffer: buffer, counts: counts)
                }
                threads.leave()
            }
            worker.name = "travel411 batch worker"
            worker.start()
        }

        let writerDone = DispatchSemaphore(value: 0)
        let writer = Thread { [output, outputPool, progress] in
            var sequence = 0
            var written = RowCounts()
            while let result = results.take(sequence: sequence) {
                let (buffer, counts) = result
                if results.failure == nil {
                    do {
                        try output.write(buffer.bytes)
                        written += counts
                        progress?(written)
                    } catch {
                        results.fail(error)
                    }
                }
                outputPool.recycle(buffer)
                slots.signal()
                sequence += 1
            }
            writerDone.signal()
        }
        writer.name = "travel411 batch writer"
        writer.start()

        var readError: (any Error)?
        do {
            while results.failure == nil, let chunk = try source.nextChunk(framer: &framer) {
                slots.wait()
                work.push(chunk)
            }
        } catch {
            readError = error
        }
        results.finish(chunkCount: work.pushedCount)
        work.close()
        threads.wait()
        writerDone.wait()
        if let failure = results.failure { throw failure }
        if let readError { throw readError }
        return results.totals
    }
}

/// A closable FIFO shared by the reader and the workers.
// @unchecked Sendable: every access to its state holds `condition`.
final class WorkQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private var isClosed = false
    private(set) var pushedCount = 0

    func push(_ item: Element) {
        condition.lock()
        items.append(item)
        pushedCount += 1
        condition.signal()
        condition.unlock()
    }

    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next item, or nil once the queue is closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !isClosed { condition.wait() }
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }
}

/// Finished chunks waiting to be written in sequence order, plus the run's first failure.
// @unchecked Sendable: every access to its state holds `condition`.
final class OrderedResults: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [Int: (GrowableByteArray, RowCounts)] = [:]
    private var chunkCount: Int?
    private var firstFailure: (any Error)?
    private(set) var totals = RowCounts()

    func deliver(sequence: Int, buffer: GrowableByteArray, counts: RowCounts) {
        condition.lock()
        pending[sequence] = (buffer, counts)
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until chunk `sequence` is done; nil when there is no such chunk.
    func take(sequence: Int) -> (GrowableByteArray, RowCounts)? {
        condition.lock()
        defer { condition.unlock() }
        while pending[sequence] == nil {
            if let chunkCount, sequence >= chunkCount { return nil }
            condition.wait()
        }
        let result = pending.removeValue(forKey: sequence)
        if let result { totals += result.1 }
        return result
    }

    package func finish(chunkCount: Int) {
        condition.lock()
        self.chunkCount = chunkCount
        condition.broadcast()
        condition.unlock()
    }

    func fail(_ error: any Error) {
        condition.lock()
        if firstFailure == nil { firstFailure = error }
        condition.unlock()
    }

    var failure: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return firstFailure
    }
}

/// Writes to the output file descriptor in large writes, retrying short ones. GeoJSON rows begin
/// with ",\n"; the writer drops the comma before the first row it writes.
// @unchecked Sendable: handed to the pipeline's one writer thread, the only thread that calls it.
final class OutputWriter: @unchecked Sendable {
    private let sink: any BatchByteSink
    private var bytesToDropAtStart: Int
    private var hasWrittenRows = false

    init(sink: any BatchByteSink, dropBeforeFirstRow: Int) {
        self.sink = sink
        self.bytesToDropAtStart = dropBeforeFirstRow
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard var start = bytes.baseAddress, bytes.count > 0 else { return }
        var remaining = bytes.count
        if !hasWrittenRows {
            hasWrittenRows = true
            let dropped = min(bytesToDropAtStart, remaining)
            start += dropped
            remaining -= dropped
        }
        guard remaining > 0 else { return }
        try sink.write(UnsafeRawBufferPointer(start: start, count: remaining))
    }

    /// Header or footer text: never subject to the first-row trimming.
    func writeFraming(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        try bytes.withUnsafeBytes { try sink.write($0) }
    }
}
