import Foundation

/// Sorts any number of fixed-size records by a 64-bit key in bounded memory: records fill a buffer,
/// each full buffer is sorted and written to a run file, and `drain` merges the runs in key order.
///
/// Memory is the buffer plus one block per run, whatever the number of records, which is what lets an
/// import of millions of features stay within a fixed budget (the street tiles, the GeoPackage R-trees).
/// Records with equal keys come out in an unspecified order: give each a unique key.
final class ExternalSorter<Record: BitwiseCopyable> {
    private let runDirectory: URL
    private let bufferRecords: Int
    private let key: (Record) -> UInt64
    private var buffer: [Record] = []
    private var runs: [URL] = []
    private var directoryCreated = false
    private(set) var count = 0

    /// `runDirectory` is created when the first run is written and removed by `drain` or `discard`.
    init(runDirectory: URL, bufferBytes: Int = 32 << 20, key: @escaping (Record) -> UInt64) {
        self.runDirectory = runDirectory
        bufferRecords = max(1024, bufferBytes / max(1, MemoryLayout<Record>.stride))
        self.key = key
    }

    deinit { discard() }

    /// Removes the run files; safe to call more than once.
    func discard() {
        if directoryCreated { try? FileManager.default.removeItem(at: runDirectory) }
        directoryCreated = false
        runs = []
        buffer = []
    }

    func append(_ record: Record) throws {
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
        if !directoryCreated {
            try FileManager.default.createDirectory(at: runDirectory, withIntermediateDirectories: true)
            directoryCreated = true
        }
        let url = runDirectory.appendingPathComponent("run-\(runs.count)")
        guard let file = fopen(url.path, "wb") else {
            throw ImportError("\(url.path): cannot create a sort run (\(String(cString: strerror(errno))))")
        }
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let flushed = fflush(file) == 0
        let closed = fclose(file) == 0
        guard written == buffer.count * MemoryLayout<Record>.stride, flushed, closed else {
            throw ImportError("\(url.path): cannot write a sort run (\(String(cString: strerror(errno)))); is the disk full?")
        }
        runs.append(url)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Every record in key order, then the runs removed. The sorter is empty afterwards.
    func drain(_ body: (Record) throws -> Void) throws {
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
        let readers = try runs.map { try RunReader<Record>(url: $0) }
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

/// The records of one run file, read a block at a time.
private final class RunReader<Record: BitwiseCopyable> {
    private let path: String
    private var file: UnsafeMutablePointer<FILE>?
    private var block: [Record] = []
    private var position = 0
    private(set) var head: Record?
    private static var blockRecords: Int { max(64, (256 << 10) / max(1, MemoryLayout<Record>.stride)) }

    init(url: URL) throws {
        path = url.path
        guard let file = fopen(url.path, "rb") else {
            throw ImportError("\(url.path): cannot read a sort run (\(String(cString: strerror(errno))))")
        }
        self.file = file
        try refill()
    }

    deinit { if let file { fclose(file) } }

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
        if records.count < capacity {
            fclose(file)
            self.file = nil
        }
        block = records
        position = 0
        head = block.first
    }
}
