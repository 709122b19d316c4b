import Foundation
import Travel411Store

/// The formats `track` reads.
public enum TrackInputFormat: String, Sendable, CaseIterable {
    case gpx, nmea, csv, jsonl

    /// From a file name's extension; nil when it says nothing (`.log`, `.txt`, no extension).
    public init?(fileExtensionOf name: String) {
        switch URL(fileURLWithPath: name).pathExtension.lowercased() {
        case "gpx": self = .gpx
        case "nmea", "nma": self = .nmea
        case "csv", "tsv": self = .csv
        case "jsonl", "ndjson", "json": self = .jsonl
        default: return nil
        }
    }

    /// From the first bytes: `<` is XML, a line starting `$` or `!` is NMEA, `{` is JSON Lines, NUL bytes
    /// are binary, anything else is CSV. Returns nil while the lines so far decide nothing and more may
    /// come (`final` false), so a live stream is decided by its first telling line, not its first 4 KB.
    static func sniff(_ sample: [UInt8], final: Bool, name: String) throws -> TrackInputFormat? {
        var body = sample[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        // Only complete lines count, unless nothing more will come.
        let complete = final ? body : body[..<(body.lastIndex(of: 10).map { $0 + 1 } ?? body.startIndex)]
        // The first line that says something decides XML and JSON; NMEA logs may start with a banner
        // ("*** program startup ***") or a header, so any of the first lines starting with `$` decides NMEA.
        var firstMeaningful = true
        var lines = 0
        for line in complete.split(separator: 10, omittingEmptySubsequences: true).prefix(40) {
            lines += 1
            guard let first = line.first(where: { $0 != 32 && $0 != 9 && $0 != 13 }) else { continue }
            if first == UInt8(ascii: "#") { continue }
            if first == UInt8(ascii: "$") || first == UInt8(ascii: "!") { return .nmea }
            if firstMeaningful && first == UInt8(ascii: "<") { return .gpx }
            if firstMeaningful && first == UInt8(ascii: "{") { return .jsonl }
            firstMeaningful = false
        }
        if body.prefix(4096).contains(0) { throw TrackingError.binaryInput(name: name) }
        guard final || lines >= 8 || body.count >= 4096 else { return nil }
        return .csv
    }
}

/// Reads fixes from a file or standard input in any supported format, one at a time: the public way into
/// tracking for every command (`track`, and a map that draws a track).
///
/// Line-based formats (NMEA, CSV, JSON Lines) are read as the bytes arrive: from a pipe, each fix is
/// yielded as soon as its line has come, without waiting for the end. GPX is a document: it is read whole,
/// then parsed. The readers themselves are pure (`NMEADecoder`, `CSVFixDecoder`, `JSONLinesFixDecoder`,
/// `GPXReader`); this class only feeds them bytes.
public final class TrackReader {
    public let name: String
    public private(set) var format: TrackInputFormat
    /// Waypoints a GPX file held, which are places rather than a track and are not fixes.
    public private(set) var waypointsIgnored = 0
    /// The GPX track and route names.
    public private(set) var trackNames: [String?] = []
    /// A GPX without a `<time>` on any point: its fixes are a route, in order, without times.
    public private(set) var untimed = false
    /// Whether the input held no bytes at all.
    public var isEmpty: Bool { bytesRead == 0 }
    /// The NMEA sentences read so far, by type; nil when the input is not NMEA.
    public var nmeaSentences: NMEADecoder.SentenceCounts? { format == .nmea ? nmea.sentences : nil }

    private let source: ByteSource
    private var bytesRead = 0
    private var lineNumber = 0
    private var queue: [TrackItem] = []
    private var queueIndex = 0
    private var finished = false
    private var pendingError: TrackingError?
    private var nmea = NMEADecoder()
    private var csv = CSVFixDecoder()
    private let jsonLines = JSONLinesFixDecoder()

    /// Opens `path` (nil or "-": standard input). The format is `format`, else the extension, else the
    /// content (which, for standard input, waits for the first bytes).
    public convenience init(path: String?, format: TrackInputFormat? = nil) throws {
        if let path, path != "-" {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { throw TrackingError.cannotOpen(name: path, detail: String(cString: strerror(errno))) }
            var status = stat()
            if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
                close(descriptor)
                throw TrackingError.cannotOpen(name: path, detail: "it is a folder")
            }
            try self.init(
                source: ByteSource(descriptor: descriptor, closeWhenDone: true), name: path,
                format: format ?? TrackInputFormat(fileExtensionOf: path))
        } else {
            try self.init(source: ByteSource(descriptor: STDIN_FILENO, closeWhenDone: false), name: "standard input", format: format)
        }
    }

    /// Reads from bytes in memory (tests, and callers that have the track already).
    public convenience init(data: Data, name: String, format: TrackInputFormat? = nil) throws {
        try self.init(source: ByteSource(data: [UInt8](data)), name: name, format: format ?? TrackInputFormat(fileExtensionOf: name))
    }

    private init(source: ByteSource, name: String, format declared: TrackInputFormat?) throws {
        self.source = source
        self.name = name
        if let declared {
            format = declared
        } else {
            format = try source.sniffFormat(name: name)
        }
    }

    /// The next fix or skipped line, nil at the end. Throws when the input cannot go on: a broken GPX
    /// (after yielding the points before the fault), a CSV header without coordinates or time, a read error.
    public func next() throws -> TrackItem? {
        while true {
            if queueIndex < queue.count {
                queueIndex += 1
                return queue[queueIndex - 1]
            }
            queue.removeAll(keepingCapacity: true)
            queueIndex = 0
            if let error = pendingError {
                pendingError = nil
                finished = true
                throw error
            }
            if finished { return nil }
            try fill()
        }
    }

    /// Every item at once, for callers that want the whole track (a map). Stops at the first fatal error.
    public func readAll() throws -> [TrackItem] {
        var items: [TrackItem] = []
        while let item = try next() { items.append(item) }
        return items
    }

    private func fill() throws {
        if format == .gpx {
            let bytes = try source.readToEnd(name: name)
            bytesRead = bytes.count
            let result = GPXReader.read(Data(bytes), name: name)
            queue = result.items
            waypointsIgnored = result.waypointsIgnored
            trackNames = result.trackNames
            untimed = result.untimed
            pendingError = bytes.isEmpty ? nil : result.error
            finished = true
            return
        }
        guard let line = try source.nextLine(name: name) else {
            bytesRead = source.totalBytes
            if format == .nmea { queue = nmea.finish() }
            finished = true
            return
        }
        bytesRead = source.totalBytes
        lineNumber += 1
        switch format {
        case .nmea: queue = nmea.decode(line: line, number: lineNumber)
        case .csv:
            do { queue = try csv.decode(line: line, number: lineNumber) } catch let error as TrackingError {
                pendingError = .nothingRead(name: name, detail: "line \(lineNumber): \(error.description)")
            }
        case .jsonl: queue = jsonLines.decode(line: line, number: lineNumber)
        case .gpx: break
        }
    }
}

/// Bytes from a file descriptor (or memory), handed out line by line as they arrive.
final class ByteSource {
    /// A line longer than this (a binary file without newlines) is cut, so memory stays bounded.
    static let maximumLineLength = 1 << 20

    private let descriptor: Int32?
    private let closeWhenDone: Bool
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private(set) var totalBytes = 0

    init(descriptor: Int32, closeWhenDone: Bool) {
        self.descriptor = descriptor
        self.closeWhenDone = closeWhenDone
    }

    init(data: [UInt8]) {
        descriptor = nil
        closeWhenDone = false
        buffer = data
        totalBytes = data.count
        atEnd = true
    }

    deinit { if closeWhenDone, let descriptor { close(descriptor) } }

    /// Reads until the first lines decide the format (or the input ends), keeping them for the decoder.
    func sniffFormat(name: String) throws -> TrackInputFormat {
        while true {
            let sample = Array(buffer[start..<min(buffer.count, start + 8192)])
            if let format = try TrackInputFormat.sniff(sample, final: atEnd, name: name) { return format }
            try readMore(name: name)
        }
    }

    func nextLine(name: String) throws -> ArraySlice<UInt8>? {
        var searchFrom = start
        while true {
            if let newline = buffer[searchFrom...].firstIndex(of: 10) {
                let line = buffer[start..<newline]
                start = newline + 1
                return line
            }
            if buffer.count - start >= Self.maximumLineLength {
                let line = buffer[start..<(start + Self.maximumLineLength)]
                start += Self.maximumLineLength
                return line
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                return line
            }
            let scanned = buffer.count - start
            try readMore(name: name)
            searchFrom = start + scanned
        }
    }

    func readToEnd(name: String) throws -> [UInt8] {
        while !atEnd { try readMore(name: name) }
        let bytes = Array(buffer[start...])
        start = buffer.count
        return bytes
    }

    private func readMore(name: String) throws {
        guard let descriptor, !atEnd else {
            atEnd = true
            return
        }
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw TrackingError.readFailed(name: name, detail: String(cString: strerror(errno))) }
            if count == 0 {
                atEnd = true
            } else {
                buffer.append(contentsOf: chunk[0..<count])
                totalBytes += count
            }
            return
        }
    }
}
