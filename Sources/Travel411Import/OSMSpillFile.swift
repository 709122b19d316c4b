import Foundation
import Travel411Core

/// Records of any size kept on disk until the whole extract is read, and read back once, in the order they were
/// written: how an extract's addresses, address points and POIs (with their building outlines) wait for the
/// postcodes and parent streets without growing the import's memory. Memory is a buffer of about a megabyte
/// each way, whatever the number of records.
///
/// As `ExternalSorter`'s runs, the file is unlinked as soon as it is created and read back through its open
/// descriptor: however the import ends (an error, Ctrl-C, kill -9), the kernel frees its space and no file is
/// left behind.
final class OSMSpillFile {
    private let path: String
    private var file: UnsafeMutablePointer<FILE>?
    /// Records not yet written, each its byte count (4 bytes, little-endian) then its bytes.
    private var pending = OSMSpillWriter()
    private(set) var count = 0
    /// Bytes gathered before each write, and read at a time.
    private let blockBytes: Int
    /// Once reading: what has been read back of the file: a block of it, from `start` on.
    private var block: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var recordsRead = 0
    private var reading = false

    /// `path`: where the file is created (beside the database being built, so that it uses that disk).
    init(path: String, blockBytes: Int = 1 << 20) throws {
        guard let file = fopen(path, "w+b") else {
            throw ImportError("\(path): cannot create a temporary file (\(String(cString: strerror(errno))))")
        }
        unlink(path)
        self.path = path
        self.file = file
        self.blockBytes = max(64, blockBytes)
    }

    deinit { discard() }

    /// Closes the file, which frees its space; safe to call more than once.
    package func discard() {
        if let file { fclose(file) }
        file = nil
        pending = OSMSpillWriter()
        block = []
        start = 0
    }

    /// Adds one record, which `write` encodes.
    package func append(_ write: (inout OSMSpillWriter) -> Void) throws {
        guard !reading else { throw ImportError("\(path): a temporary file written to after it was read back") }
        let recordStart = pending.bytes.count
        pending.write(UInt32(0))
        write(&pending)
        guard let length = UInt32(exactly: pending.bytes.count - recordStart - 4) else {
            throw ImportError("\(path): a record of \(pending.bytes.count - recordStart - 4) bytes is too big for a temporary file")
        }
        withUnsafeBytes(of: length.littleEndian) { pending.bytes.replaceSubrange(recordStart..<(recordStart + 4), with: $0) }
        count += 1
        if pending.bytes.count >= blockBytes { try flush() }
    }

    private func flush() throws {
        guard !pending.bytes.isEmpty else { return }
        guard let file else { throw ImportError("\(path): the temporary file was already read back") }
        let written = pending.bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == pending.bytes.count, fflush(file) == 0 else {
            throw ImportError("\(path): cannot write a temporary file (\(String(cString: strerror(errno)))); is the disk full?")
        }
        pending.bytes.removeAll(keepingCapacity: true)
    }

    /// Every record in the order written, each decoded by `read`; then the file is removed.
    package func drain(_ read: (inout OSMSpillReader) throws -> Void) throws {
        defer { discard() }
        while try next(read) != nil {}
    }

    /// The next record in the order written, decoded by `read`; nil after the last, when the file is removed.
    /// The first call ends the writing.
    func next<Value>(_ read: (inout OSMSpillReader) throws -> Value) throws -> Value? {
        if !reading {
            try flush()
            reading = true
            guard let file, fseek(file, 0, SEEK_SET) == 0 else {
                throw ImportError("\(path): cannot read back a temporary file (\(String(cString: strerror(errno))))")
            }
        }
        guard try have(4) else { return try ended() }
        let length = block.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: start, as: UInt32.self))) }
        guard try have(4 + length) else { return try ended() }
        let value = try block.withUnsafeBytes { bytes in
            var reader = OSMSpillReader(bytes: UnsafeRawBufferPointer(rebasing: bytes[(start + 4)..<(start + 4 + length)]), path: path)
            return try read(&reader)
        }
        start += 4 + length
        recordsRead += 1
        return value
    }

    /// Makes `block[start..<start + needed]` readable, reading on; false when the file ends first.
    private func have(_ needed: Int) throws -> Bool {
        while block.count - start < needed {
            guard !atEnd, let file else { return false }
            block.removeSubrange(0..<start)
            start = 0
            let room = max(blockBytes, needed - block.count)
            let before = block.count
            block.append(contentsOf: repeatElement(0, count: room))
            let read = block.withUnsafeMutableBytes { fread($0.baseAddress.map { $0 + before }, 1, room, file) }
            if read < room {
                if ferror(file) != 0 { throw ImportError("\(path): cannot read back a temporary file") }
                atEnd = true
            }
            block.removeLast(room - read)
        }
        return true
    }

    /// Checks that every record came back, then removes the file.
    private func ended<Value>() throws -> Value? {
        defer { discard() }
        guard recordsRead == count, block.count == start else {
            throw ImportError("\(path): the temporary file gave back \(recordsRead) of its \(count) records")
        }
        return nil
    }
}

/// Encodes a record's values: numbers little-endian, a text as its byte count and UTF-8 (a nil text as a 0 byte).
struct OSMSpillWriter {
    fileprivate(set) var bytes: [UInt8] = []

    mutating func write(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func write(_ value: Double) { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func write(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }

    mutating func write(_ point: Point2D) {
        write(point.x)
        write(point.y)
    }

    mutating func write(_ text: String?) {
        guard var text else { return bytes.append(0) }
        bytes.append(1)
        text.withUTF8 { utf8 in
            write(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Bytes as their count and themselves; nil as a 0 byte.
    mutating func write(blob value: [UInt8]?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        write(UInt32(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func write(_ texts: [String?]) {
        write(UInt32(texts.count))
        for text in texts { write(text) }
    }

    mutating func write(_ rings: [[Point2D]]) {
        write(UInt32(rings.count))
        for ring in rings {
            write(UInt32(ring.count))
            for point in ring { write(point) }
        }
    }
}

/// Decodes one record's values in the order `OSMSpillWriter` wrote them; reading past the record's end throws.
struct OSMSpillReader {
    private let bytes: UnsafeRawBufferPointer
    private let path: String
    private var position = 0

    init(bytes: UnsafeRawBufferPointer, path: String) {
        self.bytes = bytes
        self.path = path
    }

    private mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer {
        guard count >= 0, count <= bytes.count - position else {
            throw ImportError("\(path): a record of the temporary file ends early")
        }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)])
    }

    mutating func uint32() throws -> UInt32 { UInt32(littleEndian: try take(4).loadUnaligned(as: UInt32.self)) }
    mutating func double() throws -> Double { Double(bitPattern: UInt64(littleEndian: try take(8).loadUnaligned(as: UInt64.self))) }
    mutating func int64() throws -> Int64 { Int64(littleEndian: try take(8).loadUnaligned(as: Int64.self)) }
    package mutating func point() throws -> Point2D { Point2D(x: try double(), y: try double()) }

    package mutating func text() throws -> String? {
        guard try take(1)[0] != 0 else { return nil }
        let count = Int(try uint32())
        return String(decoding: try take(count), as: UTF8.self)
    }

    /// A text written as a `String`, not as an optional one.
    mutating func presentText() throws -> String {
        guard let text = try text() else { throw ImportError("\(path): a record of the temporary file lacks a text") }
        return text
    }

    /// Bytes written by `OSMSpillWriter.write(blob:)`.
    mutating func blob() throws -> [UInt8]? {
        guard try take(1)[0] != 0 else { return nil }
        let count = Int(try uint32())
        return Array(try take(count))
    }

    mutating func texts() throws -> [String?] {
        try (0..<Int(try uint32())).map { _ in try text() }
    }

    mutating func rings() throws -> [[Point2D]] {
        try (0..<Int(try uint32())).map { _ in try (0..<Int(try uint32())).map { _ in try point() } }
    }
}
