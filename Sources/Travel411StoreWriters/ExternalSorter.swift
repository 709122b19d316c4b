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
package final class ExternalSorter<Record: BitwiseCopyable> {
    private let runPrefix: String
    private let bufferRecords: Int
    private let key: (Record) -> UInt64
    private var buffer: [Record] = []
    private var runs: [UnsafeMutablePointer<FILE>] = []
    private(set) var count = 0

    /// Runs are created as `runPrefix` followed by a number (beside the database being built, so that they
    /// use its disk), and unlinked at once.
    package init(runPrefix: String, bufferBytes: Int = 32 << 20, key: @escaping (Record) -> UInt64) {
        self.runPrefix = runPrefix
        bufferRecords = max(1024, bufferBytes / max(1, MemoryLayout<Record>.stride))
        self.key = key
    }

    deinit { discard() }

    /// Closes the runs, which frees their space; safe to call more than once.
    package func discard() {
        for run in runs { fclose(run) }
        runs = []
        buffer = []
    }

    package func append(_ record: Record) throws {
        // The whole buffer at once: growing by doubling would briefly hold the old and the new copy.
        if buffer.capacity == 0 { buffer.reserveCapacity(count == 0 ? min(bufferRecords, 4096) : bufferRecords) }
        if buffer.count == buffer.capacity, buffer.capacity < bufferRecords { buffer.reserveCapacity(bufferRecords) }
        buffer.append(record)
        count += 1
        if buffer.count >= bufferRecords { try spill() }
    }

    /// Sorts the buffer and writes it as one run, then lets go of the buffer's memory.
    private func spill() throws {
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
    package func drain(_ body: (Record) throws -> Void) throws {
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
        // Runs are tens at most (32 MB each): a linear scan for the smallest head beats a heap's bookkeeping.
        while true {
            var smallest: (index: Int, key: UInt64)?
            for (i, reader) in readers.enumerated() {
                if let head = reader.head, smallest.map({ key(head) < $0.key }) ?? true { smallest = (i, key(head)) }
            }
            guard let index = smallest?.index, let record = readers[index].head else { break }
            try body(record)
            try readers[index].advance()
        }
    }
}

/// The records of one run file, read from its start a block at a time; the sorter closes the file.
private final class RunReader<Record: BitwiseCopyable> {
    private let path: String
    private var file: UnsafeMutablePointer<FILE>?
    private var block: [Record] = []
    private var position = 0
    private(set) var head: Record?
    private static var blockRecords: Int { max(64, (256 << 10) / max(1, MemoryLayout<Record>.stride)) }

    package init(file: UnsafeMutablePointer<FILE>, name: String) throws {
        path = name
        guard fseek(file, 0, SEEK_SET) == 0 else {
            throw ImportError("\(name): cannot read back a sort run (\(String(cString: strerror(errno))))")
        }
        self.file = file
        try refill()
    }

    func advance() throws {
        position += 1
        if position < block.count {
            head = block[position]
        } else {
            try refill()
        }
    }

    private func refill() throws {
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
