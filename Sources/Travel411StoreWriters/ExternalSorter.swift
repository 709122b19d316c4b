import Foundation
import Travel411Core

/// Sorts any number of fixed-size records by a 64-bit key in bounded memory: records fill a buffer,
/// each full buffer is sorted and written to a run file, and `drain` merges the runs in key order.
///
/// Memory is the buffer plus the merge's blocks, whatever the number of records, which is what lets an
/// import of millions of features stay within a fixed budget (the street tiles, the GeoPackage R-trees). The
/// merge reads every run a block at a time, the blocks sharing `mergeBytes`; and runs are merged `fanIn` at a
/// time into longer ones as they are cut, so that a sort never holds more than a few hundred open at once
/// (the planet's street segments fill thousands of 32 MB buffers, beyond a process's usual 1,024 open files).
/// Records with equal keys come out in the order they were appended in, run by run: give each a unique key
/// all the same, as the order within a buffer's sort is unspecified.
///
/// A run file is unlinked as soon as it is created and read back through its open descriptor: however the
/// process ends (an error, Ctrl-C, kill -9), the kernel frees its disk space and no file is left behind.
///
/// Inlinable, so that a sorter of another module's records is specialised there: called through generic
/// metadata (`Optional<Record>`, the heap's tuples), merging the streets' runs spent most of its time in the
/// runtime's metadata lookups. The class is public, not package: Swift 6.3 leaves the `@inlinable` members of a
/// package class out of the module it writes, so other modules called the generic code after all (the streets'
/// tiles, parent streets, objects' nearest streets: no specialised copy in the binary).
public final class ExternalSorter<Record: BitwiseCopyable> {
    @usableFromInline let runPrefix: String
    @usableFromInline let bufferRecords: Int
    @usableFromInline let key: (Record) -> UInt64
    @usableFromInline var buffer: [Record] = []
    @usableFromInline var runs: [UnsafeMutablePointer<FILE>] = []
    /// How many merges made each run (0: cut from the buffer); never increasing from the oldest run to the newest.
    @usableFromInline var runLevels: [Int] = []
    /// Runs created so far, which names the next.
    @usableFromInline var runsMade = 0
    @usableFromInline let fanIn: Int
    /// Whether the buffer grows past its first step only once the sorter has taken as many records as the grown
    /// buffer holds, writing runs at its size until then (`init`).
    @usableFromInline let growsWithCount: Bool
    /// Whether a full buffer is sorted and written on another thread while the next fills (`SortRunInFlight`).
    @usableFromInline let spillsInBackground: Bool
    /// The run being written so: at most one at a time, so that the sorter holds two buffers at most.
    @usableFromInline var runInFlight: SortRunInFlight?
    @usableFromInline var count = 0
    /// The records the buffer first takes room for.
    @inlinable static var firstBufferRecords: Int { 4096 }
    /// What the merge's blocks take together, a block at most 256 KB.
    @inlinable static var mergeBytes: Int { 16 << 20 }

    /// Runs are created as `runPrefix` followed by a number (beside the database being built, so that they
    /// use its disk), and unlinked at once.
    /// `fanIn`: how many runs of one length are merged into a longer one. `growsWithCount`: past its first step, the
    /// buffer takes its next size (four times its size) only once the sorter has taken that many records, and writes
    /// runs at its size until then: one of many sorters filled at once (the feature tables' R-trees) holds no more for a table of 50,000
    /// records than for one of 10,000, and reaches its full size only for a table a few times larger than it.
    /// `spillsInBackground`: each run is sorted and written on a thread of its own, the buffer it came from held
    /// until then beside the next (a failure to write it is thrown by the next spill or by `drain`); the runs and what
    /// `drain` gives are the same.
    @inlinable package init(
        runPrefix: String, bufferBytes: Int = 32 << 20, fanIn: Int = 64, growsWithCount: Bool = false,
        spillsInBackground: Bool = false, key: @escaping (Record) -> UInt64
    ) {
        self.runPrefix = runPrefix
        self.fanIn = max(2, fanIn)
        self.growsWithCount = growsWithCount
        self.spillsInBackground = spillsInBackground
        bufferRecords = max(1024, bufferBytes / max(1, MemoryLayout<Record>.stride))
        self.key = key
    }

    @inlinable deinit { discard() }

    /// Closes the runs, which frees their space; safe to call more than once.
    @inlinable package func discard() {
        // Its thread writes to the newest run: closed once it is done. What failed is of no interest here.
        try? runInFlight?.wait()
        runInFlight = nil
        for run in runs { fclose(run) }
        runs = []
        runLevels = []
        buffer = []
    }

    @inlinable package func append(_ record: Record) throws {
        // Grown four times at a step up to the whole buffer, then kept: a sorter that gets a few thousand records
        // (one of many area levels of a small import) holds little, and a big one copies its buffer a few times
        // only; after a spill the buffer is reused at full size. The step to the whole buffer writes a buffer of a
        // megabyte or more out first (`seal`) rather than copying it: the copy held a quarter of the whole buffer
        // beside it (issue 35).
        if buffer.capacity == 0 { buffer.reserveCapacity(count == 0 ? min(bufferRecords, Self.firstBufferRecords) : bufferRecords) }
        if buffer.count == buffer.capacity, buffer.capacity < bufferRecords {
            let grown = min(bufferRecords, buffer.capacity * 4)
            if growsWithCount, buffer.capacity >= 4 * Self.firstBufferRecords, count < grown {
                try spill()
            } else {
                if grown == bufferRecords { try seal() }
                buffer.reserveCapacity(grown)
            }
        }
        buffer.append(record)
        count += 1
        if buffer.count >= bufferRecords { try spill() }
    }

    /// Done appending for a while: writes a buffer of a megabyte or more as a run and lets go of its memory, so
    /// that a sorter waiting for its drain (the streets' tiles wait from the end of the read to the end of the
    /// import) holds none meanwhile; a smaller one stays. The merge gives the same order, as the buffer would have
    /// been the last run; appending again grows a new buffer.
    @inlinable package func seal() throws {
        guard buffer.capacity * MemoryLayout<Record>.stride >= 1 << 20 else { return }
        if !buffer.isEmpty { try spill(keepingRoom: false) }
        buffer = []
    }

    /// Sorts the buffer and writes it as one run, here or on another thread (`spillsInBackground`), keeping room
    /// for as many records in the buffer (`keepingRoom`) or none.
    @inlinable func spill(keepingRoom: Bool = true) throws {
        try finishRunInFlight()
        let (file, path) = try newRun()
        runs.append(file)
        runLevels.append(0)
        if spillsInBackground {
            // The buffer's storage goes with the run, held by nothing else: sorted in place, freed once written.
            let spilled = SpilledBuffer(records: buffer), capacity = buffer.capacity, key = self.key
            buffer = []
            if keepingRoom { buffer.reserveCapacity(capacity) }
            runInFlight = SortRunInFlight {
                Self.sort(&spilled.records, key: key)
                try Self.writeRun(spilled.records, to: file, path: path)
                spilled.records = []
            }
        } else {
            sortBuffer()
            try Self.writeRun(buffer, to: file, path: path)
            buffer.removeAll(keepingCapacity: true)
        }
        try mergeNewestRuns()
    }

    /// Waits for the run being written on another thread, if any, throwing what failed writing it.
    @inlinable func finishRunInFlight() throws {
        guard let run = runInFlight else { return }
        runInFlight = nil
        try run.wait()
    }

    /// A buffer handed to the thread that writes it (`spill`).
    @usableFromInline final class SpilledBuffer {
        @usableFromInline var records: [Record]
        @inlinable init(records: [Record]) { self.records = records }
    }

    /// A whole run: the records, then flushed.
    @inlinable static func writeRun(_ records: [Record], to file: UnsafeMutablePointer<FILE>, path: String) throws {
        try write(records, to: file, path: path)
        guard fflush(file) == 0 else { throw writeError(path) }
    }

    /// Sorts the buffer by key, equal keys in the order they were appended, as the standard library's stable sort
    /// does: each key is taken once and sorted with its record's position, then the records are moved to their
    /// places, a cycle at a time. Sorting the records themselves called `key` twice a comparison and moved whole
    /// records (at 150 copies of Liechtenstein a fifth of the read's features thread, in the street tiles' sorter).
    @inlinable func sortBuffer() { Self.sort(&buffer, key: key) }

    @inlinable static func sort(_ buffer: inout [Record], key: (Record) -> UInt64) {
        var order: [(key: UInt64, position: Int)] = []
        order.reserveCapacity(buffer.count)
        for (position, record) in buffer.enumerated() { order.append((key(record), position)) }
        order.sort { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }
        buffer.withUnsafeMutableBufferPointer { records in
            order.withUnsafeMutableBufferPointer { order in
                // records[slot] takes the record at order[slot].position; a slot done points at itself.
                for start in order.indices where order[start].position != start {
                    let first = records[start]
                    var slot = start
                    while true {
                        let source = order[slot].position
                        order[slot].position = slot
                        if source == start {
                            records[slot] = first
                            break
                        }
                        records[slot] = records[source]
                        slot = source
                    }
                }
            }
        }
    }

    /// A new run file, unlinked.
    @inlinable func newRun() throws -> (UnsafeMutablePointer<FILE>, String) {
        let path = runPrefix + String(runsMade)
        guard let file = fopen(path, "w+b") else {
            throw ImportError("\(path): cannot create a sort run (\(String(cString: strerror(errno))))")
        }
        unlink(path)
        runsMade += 1
        return (file, path)
    }

    @inlinable static func write(_ records: [Record], to file: UnsafeMutablePointer<FILE>, path: String) throws {
        let written = records.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == records.count * MemoryLayout<Record>.stride else { throw Self.writeError(path) }
    }

    @inlinable static func writeError(_ path: String) -> ImportError {
        ImportError("\(path): cannot write a sort run (\(String(cString: strerror(errno)))); is the disk full?")
    }

    /// While the newest `fanIn` runs are of one level, merges them into one run of the next: a binary counter in
    /// base `fanIn`, so that each record is rewritten once per level, and the runs stay in the order of their
    /// records (equal keys from the earlier run first, as the final merge takes them).
    @inlinable func mergeNewestRuns() throws {
        while runs.count >= fanIn, let level = runLevels.last, runLevels.suffix(fanIn).allSatisfy({ $0 == level }) {
            try finishRunInFlight()
            let first = runs.count - fanIn
            let (merged, path) = try newRun()
            var block: [Record] = []
            let blockRecords = max(64, (256 << 10) / max(1, MemoryLayout<Record>.stride))
            block.reserveCapacity(blockRecords)
            do {
                try merge(Array(runs[first...])) { record in
                    block.append(record)
                    if block.count == blockRecords {
                        try Self.write(block, to: merged, path: path)
                        block.removeAll(keepingCapacity: true)
                    }
                }
                try Self.writeRun(block, to: merged, path: path)
            } catch {
                fclose(merged)
                throw error
            }
            for run in runs[first...] { fclose(run) }
            runs.replaceSubrange(first..., with: [merged])
            runLevels.replaceSubrange(first..., with: [level + 1])
        }
    }

    /// The records of `files`, runs in key order, merged: equal keys from the earlier run first.
    @inlinable func merge(_ files: [UnsafeMutablePointer<FILE>], _ body: (Record) throws -> Void) throws {
        let key = self.key
        let blockRecords = max(64, min(256 << 10, Self.mergeBytes / max(1, files.count)) / max(1, MemoryLayout<Record>.stride))
        let readers = try files.enumerated().map {
            try RunReader<Record>(file: $1, name: runPrefix + String($0), blockRecords: blockRecords)
        }
        // A large import makes hundreds of runs: the smallest head comes from a heap, not a scan of every run.
        var heads = RunHeads(readers.indices.compactMap { run in readers[run].head.map { (key($0), run) } })
        while let run = heads.smallestRun, let record = readers[run].head {
            try body(record)
            try readers[run].advance()
            heads.replaceSmallest(with: readers[run].head.map { key($0) })
        }
    }

    /// Every record in key order, then the runs removed. The sorter is empty afterwards.
    @inlinable package func drain(_ body: (Record) throws -> Void) throws {
        defer {
            discard()
            count = 0
        }
        if runs.isEmpty {
            sortBuffer()
            for record in buffer { try body(record) }
            return
        }
        if !buffer.isEmpty { try spill(keepingRoom: false) }
        try finishRunInFlight()
        // The merge reads the runs in blocks of its own: the buffer, a full one kept by `spill`, goes first.
        buffer = []
        try merge(runs, body)
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
    @usableFromInline let blockRecords: Int

    @inlinable init(file: UnsafeMutablePointer<FILE>, name: String, blockRecords: Int) throws {
        path = name
        self.blockRecords = blockRecords
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
        let capacity = blockRecords
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
