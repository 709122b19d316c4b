import Foundation
import Travel411Core

/// Sorts any number of fixed-size records by a 64-bit key in bounded memory: records fill a buffer,
/// each full buffer is sorted and written to a run file, and `drain` merges the runs in key order.
///
/// Memory is the buffer plus one block per run, whatever the number of records, which is what lets an
/// import of millions of features stay within a fixed budget (the street tiles, the GeoPackage R-trees).
/// Records with equal keys come out in an unspecified order: give each a unique key.
///
/// A run file is unlinked as soon as it is created and read back through its open descriptor: however the
/// process ends (an error, Ctrl-C, kill -9), the kernel frees its disk space and no file is left behind.
///
/// Inlinable, so that a sorter of another module's records is specialised there: called through generic
/// metadata (`Optional<Record>`, the heap's tuples), merging the streets' runs spent most of its time in the
/// runtime's metadata lookups.
package final class ExternalSorter<Record: BitwiseCopyable> {
    @usableFromInline let runPrefix: String
    @usableFromInline let bufferRecords: Int
    @usableFromInline let key: (Record) -> UInt64
    @usableFromInline var buffer: [Record] = []
    @usableFromInline var runs: [UnsafeMutablePointer<FILE>] = []
    @usableFromInline var count = 0

    /// Runs are created as `runPrefix` followed by a number (beside the database being built, so that they
    /// use its disk), and unlinked at once.
    @inlinable package init(runPrefix: String, bufferBytes: Int = 32 << 20, key: @escaping (Record) -> UInt64) {
        self.runPrefix = runPrefix
        bufferRecords = max(1024, bufferBytes / max(1, MemoryLayout<Record>.stride))
        self.key = key
    }

    @inlinable deinit { discard() }

    /// Closes the runs, which frees their space; safe to call more than once.
    @inlinable package func discard() {
        for run in runs { fclose(run) }
        runs = []
        buffer = []
    }

    @inlinable package func append(_ record: Record) throws {
        // Grown four times at a step up to the whole buffer, then kept: a sorter that gets a few thousand records
        // (one of many area levels of a small import) holds little, and a big one copies its buffer a few times
        // only; after a spill the buffer is reused at full size.
        if buffer.capacity == 0 { buffer.reserveCapacity(count == 0 ? min(bufferRecords, 4096) : bufferRecords) }
        if buffer.count == buffer.capacity, buffer.capacity < bufferRecords {
            buffer.reserveCapacity(min(bufferRecords, buffer.capacity * 4))
        }
        buffer.append(record)
        count += 1
        if buffer.count >= bufferRecords { try spill() }
    }

    /// Sorts the buffer and writes it as one run, then lets go of the buffer's memory.
    @inlinable func spill() throws {
        let key = self.key
        buffer.sort { key($0) < key($1) }
        let path = runPrefix + String(runs.count)
        guard let file = fopen(path, "w+b") else {
            throw ImportError("\(path): cannot create a sort run (\(String(cString: strerror(errno))))")
        }
        unlink(path)
        runs.append(file)
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == buffer.count * MemoryLayout<Record>.stride, fflush(file) == 0 else {
            throw ImportError("\(path): cannot write a sort run (\(String(cString: strerror(errno)))); is the disk full?")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Every record in key order, then the runs removed. The sorter is empty afterwards.
    @inlinable package func drain(_ body: (Record) throws -> Void) throws {
        defer {
            discard()
            count = 0
        }
        let key = self.key
        if runs.isEmpty {
            buffer.sort { key($0) < key($1) }
            for record in buffer { try body(record) }
            return
        }
        if !buffer.isEmpty { try spill() }
        let readers = try runs.enumerated().map { try RunReader<Record>(file: $1, name: runPrefix + String($0)) }
        // A large import makes hundreds of runs: the smallest head comes from a heap, not a scan of every run.
        var heads = RunHeads(readers.indices.compactMap { run in readers[run].head.map { (key($0), run) } })
        while let run = heads.smallestRun, let record = readers[run].head {
            try body(record)
            try readers[run].advance()
            heads.replaceSmallest(with: readers[run].head.map { key($0) })
        }
    }
}

/// The runs' head keys in a binary min-heap ordered by key, then by run: equal keys come from the earlier run
/// first, as a scan of the runs in order would give them.
@usableFromInline struct RunHeads {
    @usableFromInline var heap: [(key: UInt64, run: Int)]

    @inlinable init(_ heads: [(key: UInt64, run: Int)]) {
        heap = heads
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    @inlinable var smallestRun: Int? { heap.first?.run }

    /// The smallest run's next key, or nil when that run is finished.
    @inlinable mutating func replaceSmallest(with key: UInt64?) {
        guard !heap.isEmpty else { return }
        if let key {
            heap[0].key = key
        } else {
            heap[0] = heap[heap.count - 1]
            heap.removeLast()
        }
        if !heap.isEmpty { siftDown(0) }
    }

    @inlinable static func precedes(_ a: (key: UInt64, run: Int), _ b: (key: UInt64, run: Int)) -> Bool {
        a.key < b.key || (a.key == b.key && a.run < b.run)
    }

    @inlinable mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, Self.precedes(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, Self.precedes(heap[right], heap[smallest]) { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

/// The records of one run file, read from its start a block at a time; the sorter closes the file.
@usableFromInline final class RunReader<Record: BitwiseCopyable> {
    @usableFromInline let path: String
    @usableFromInline var file: UnsafeMutablePointer<FILE>?
    @usableFromInline var block: [Record] = []
    @usableFromInline var position = 0
    @usableFromInline var head: Record?
    @inlinable static var blockRecords: Int { max(64, (256 << 10) / max(1, MemoryLayout<Record>.stride)) }

    @inlinable init(file: UnsafeMutablePointer<FILE>, name: String) throws {
        path = name
        guard fseek(file, 0, SEEK_SET) == 0 else {
            throw ImportError("\(name): cannot read back a sort run (\(String(cString: strerror(errno))))")
        }
        self.file = file
        try refill()
    }

    @inlinable func advance() throws {
        position += 1
        if position < block.count {
            head = block[position]
        } else {
            try refill()
        }
    }

    @inlinable func refill() throws {
        guard let file else {
            head = nil
            return
        }
        let capacity = Self.blockRecords
        let records = try [Record](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            let read = fread(buffer.baseAddress, MemoryLayout<Record>.stride, capacity, file)
            if read < capacity, ferror(file) != 0 { throw ImportError("\(path): cannot read back a sort run") }
            initialized = read
        }
        if records.count < capacity { self.file = nil }
        block = records
        position = 0
        head = block.first
    }
}
