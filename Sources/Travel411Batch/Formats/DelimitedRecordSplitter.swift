import Travel411Core

/// The result of splitting one record.
package struct DelimitedRecord {
    /// Offset of the record's first byte.
    var start: Int
    /// Offset after the record's last content byte (line terminator excluded).
    var contentEnd: Int
    /// Offset where the next record starts.
    package var next: Int
    /// Line terminators consumed, embedded newlines in quoted fields included.
    package var lines: Int
    /// A quoted field ran to the end of the input without its closing quote.
    package var isUnterminated: Bool
    /// The record ended at a line feed (rather than at the end of the bytes given).
    var endsWithNewline: Bool
}

/// Where a record's fields go as they are split: an array, or a chunk's `GrowingBuffer`.
protocol InputCellSink {
    mutating func append(_ cell: InputCell)
}

extension Array: InputCellSink where Element == InputCell {}

extension GrowingBuffer: InputCellSink where Element == InputCell {}

/// Splits CSV and TSV records (RFC 4180): fields that start with a quote may hold delimiters, quotes
/// (doubled) and line breaks; records end at LF or CRLF outside quotes.
///
/// Lenient where real files are sloppy: a quote inside an unquoted field is kept as text, and text
/// after a closing quote is appended to the field, as spreadsheets do.
package struct DelimitedRecordSplitter: Sendable {
    static let quote = UInt8(ascii: "\"")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    let delimiter: UInt8

    package init(delimiter: UInt8) { self.delimiter = delimiter }

    /// Splits the record starting at `start`, filling `fields`.
    @inline(__always)
    package func split(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, into fields: inout [InputCell]) -> DelimitedRecord {
        fields.removeAll(keepingCapacity: true)
        return split(bytes, from: start, to: end, appendingTo: &fields)
    }

    /// Splits the record starting at `start`, appending its fields after those already in `fields` (a chunk's
    /// records side by side, `PointsAhead`).
    @inline(__always)
    func split<Fields: InputCellSink>(
        _ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, appendingTo fields: inout Fields
    ) -> DelimitedRecord {
        let delimiter = self.delimiter
        var index = start
        var embeddedNewlines = 0
        while true {
            let fieldStart = index
            var isQuoted = false
            if index < end && bytes[index] == Self.quote {
                isQuoted = true
                index &+= 1
                var isClosed = false
                while index < end {
                    let byte = bytes[index]
                    if byte == Self.quote {
                        if index &+ 1 < end && bytes[index &+ 1] == Self.quote {
                            index &+= 2
                            continue
                        }
                        index &+= 1
                        isClosed = true
                        break
                    }
                    if byte == Self.newline { embeddedNewlines &+= 1 }
                    index &+= 1
                }
                if !isClosed {
                    fields.append(InputCell(start: fieldStart, end: end, kind: .delimitedQuoted))
                    return DelimitedRecord(
                        start: start, contentEnd: end, next: end, lines: embeddedNewlines, isUnterminated: true, endsWithNewline: false)
                }
            }
            index = nextDelimiterOrNewline(bytes, from: index, to: end)
            if index < end && bytes[index] == delimiter {
                fields.append(InputCell(start: fieldStart, end: index, kind: isQuoted ? .delimitedQuoted : .delimitedPlain))
                index &+= 1
                continue
            }
            var fieldEnd = index
            if fieldEnd > fieldStart && bytes[fieldEnd &- 1] == Self.carriageReturn { fieldEnd &-= 1 }
            fields.append(InputCell(start: fieldStart, end: fieldEnd, kind: isQuoted ? .delimitedQuoted : .delimitedPlain))
            let endsWithNewline = index < end
            return DelimitedRecord(
                start: start, contentEnd: fieldEnd, next: endsWithNewline ? index &+ 1 : end,
                lines: embeddedNewlines &+ (endsWithNewline ? 1 : 0), isUnterminated: false, endsWithNewline: endsWithNewline)
        }
    }

    /// `split(_:from:to:appendingTo:)` of a record holding no quote at all (nearly every record of a file of
    /// numbers), in one pass: sixteen bytes a step, then eight, every delimiter, line feed and quote of a word found at once
    /// (`zeroBytes`) and taken in order, rather than a scan restarted at each field. Nil, with `fields` as it was,
    /// at the record's first quote: `split` then reads it. Without quotes the two read the same fields.
    @inline(__always)
    func splitUnquoted(
        _ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, appendingTo fields: inout GrowingBuffer<InputCell>
    ) -> DelimitedRecord? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let delimiter = self.delimiter
        let delimiters = UInt64(delimiter) &* ones, newlines = UInt64(Self.newline) &* ones
        let quotes = UInt64(Self.quote) &* ones
        let firstField = fields.count
        var fieldStart = start
        var index = start
        // A stop at `position`: a delimiter ends a field, a line feed the record, a quote the fast path.
        func stop(at position: Int, fields: inout GrowingBuffer<InputCell>) -> DelimitedRecord?? {
            let byte = bytes[position]
            if byte == delimiter {
                fields.append(InputCell(start: fieldStart, end: position, kind: .delimitedPlain))
                fieldStart = position &+ 1
                return .some(nil)
            }
            guard byte == Self.newline else {
                fields.truncate(to: firstField)
                return .none
            }
            var fieldEnd = position
            if fieldEnd > fieldStart && bytes[fieldEnd &- 1] == Self.carriageReturn { fieldEnd &-= 1 }
            fields.append(InputCell(start: fieldStart, end: fieldEnd, kind: .delimitedPlain))
            return DelimitedRecord(
                start: start, contentEnd: fieldEnd, next: position &+ 1, lines: 1, isUnterminated: false, endsWithNewline: true)
        }
        // Sixteen bytes a step (SSE2's byte compares), each half's stops as the high bits of its matching bytes, as
        // `zeroBytes` gives them for the last eight bytes below: a record of two coordinates takes two steps, not four.
        typealias Lanes = SIMD16<UInt8>
        let delimiterLanes = Lanes(repeating: delimiter), newlineLanes = Lanes(repeating: Self.newline)
        let quoteLanes = Lanes(repeating: Self.quote)
        let highs: UInt64 = 0x8080_8080_8080_8080
        while end &- index >= Lanes.scalarCount {
            let lanes = UnsafeRawPointer(bytes + index).loadUnaligned(as: Lanes.self)
            let found = unsafeBitCast(lanes .== delimiterLanes .| lanes .== newlineLanes .| lanes .== quoteLanes, to: SIMD2<UInt64>.self)
            var stops = UInt64(littleEndian: found[0]) & highs
            while stops != 0 {
                guard let outcome = stop(at: index &+ stops.trailingZeroBitCount &>> 3, fields: &fields) else { return nil }
                if let record = outcome { return record }
                stops &= stops &- 1
            }
            stops = UInt64(littleEndian: found[1]) & highs
            while stops != 0 {
                guard let outcome = stop(at: index &+ 8 &+ stops.trailingZeroBitCount &>> 3, fields: &fields) else { return nil }
                if let record = outcome { return record }
                stops &= stops &- 1
            }
            index &+= Lanes.scalarCount
        }
        while end &- index >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
            var stops = Self.zeroBytes(word ^ delimiters) | Self.zeroBytes(word ^ newlines) | Self.zeroBytes(word ^ quotes)
            while stops != 0 {
                guard let outcome = stop(at: index &+ stops.trailingZeroBitCount &>> 3, fields: &fields) else { return nil }
                if let record = outcome { return record }
                stops &= stops &- 1
            }
            index &+= 8
        }
        while index < end {
            let byte = bytes[index]
            if byte == delimiter || byte == Self.newline || byte == Self.quote {
                guard let outcome = stop(at: index, fields: &fields) else { return nil }
                if let record = outcome { return record }
            }
            index &+= 1
        }
        // The input ends inside the record: its last field runs to the end, as `split` reads it.
        var fieldEnd = end
        if fieldEnd > fieldStart && bytes[fieldEnd &- 1] == Self.carriageReturn { fieldEnd &-= 1 }
        fields.append(InputCell(start: fieldStart, end: fieldEnd, kind: .delimitedPlain))
        return DelimitedRecord(start: start, contentEnd: fieldEnd, next: end, lines: 0, isUnterminated: false, endsWithNewline: false)
    }

    /// The offset of the first delimiter or line feed in `bytes[start..<end]`, else `end`: eight bytes a step, each
    /// word's matching bytes found at once (`zeroBytes`), and the last few bytes one by one. Byte by byte, this
    /// scan was the largest part of reading a chunk's records.
    @inline(__always)
    func nextDelimiterOrNewline(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let delimiters = UInt64(delimiter) &* ones, newlines = UInt64(Self.newline) &* ones
        var index = start
        while end &- index >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
            let stops = Self.zeroBytes(word ^ delimiters) | Self.zeroBytes(word ^ newlines)
            if stops != 0 { return index &+ stops.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        while index < end {
            let byte = bytes[index]
            if byte == delimiter || byte == Self.newline { return index }
            index &+= 1
        }
        return end
    }

    /// The high bit of exactly the zero bytes of `word` (Warren, Hacker's Delight, 6-1; Anderson, "Bit Twiddling
    /// Hacks": "Determine if a word has a zero byte"): no borrow runs between bytes, so the lowest one found is
    /// the first zero byte, and bytes after it are never reported by mistake.
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((word & lows) &+ lows) | word | lows)
    }

    /// A record holding nothing at all (an empty line): skipped rather than counted as a row.
    @inline(__always)
    package static func isBlank(_ fields: [InputCell]) -> Bool { fields.withUnsafeBufferPointer { isBlank($0) } }

    /// `isBlank` of a record whose fields are `fields`.
    @inline(__always)
    static func isBlank(_ fields: UnsafeBufferPointer<InputCell>) -> Bool {
        fields.count == 1 && fields[0].kind == .delimitedPlain && fields[0].start == fields[0].end
    }

    /// The value of a quoted field: quotes removed, doubled quotes halved, trailing text kept.
    static func decodeQuoted(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, into output: GrowableByteArray) {
        var index = start &+ 1
        var runStart = index
        while index < end {
            if bytes[index] == quote {
                output.append(bytes + runStart, count: index &- runStart)
                if index &+ 1 < end && bytes[index &+ 1] == quote {
                    output.append(quote)
                    index &+= 2
                    runStart = index
                    continue
                }
                // The closing quote: whatever follows it is kept as plain text.
                output.append(bytes + (index &+ 1), count: end &- index &- 1)
                return
            }
            index &+= 1
        }
        output.append(bytes + runStart, count: end &- runStart)
    }

    /// A field's value as a String, for header names and error messages.
    package static func text(of field: InputCell, in bytes: UnsafePointer<UInt8>) -> String {
        guard field.kind == .delimitedQuoted else {
            return String(decoding: UnsafeBufferPointer(start: bytes + field.start, count: field.end - field.start), as: UTF8.self)
        }
        let scratch = GrowableByteArray(capacity: field.end - field.start)
        decodeQuoted(bytes, from: field.start, to: field.end, into: scratch)
        return String(decoding: scratch.bytes, as: UTF8.self)
    }
}

/// Finds where records end in a stream of CSV/TSV blocks, for cutting blocks into chunks of whole
/// records. A sequential scan (quote state depends on everything before) that resumes where it
/// stopped, so a long record is never rescanned.
struct DelimitedRecordFramer: RecordFramer {
    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }
    let delimiter: UInt8
    private var state = State.fieldStart

    init(delimiter: UInt8) { self.delimiter = delimiter }

    var isFinished: Bool { false }

    /// Units are line feeds, so chunks know their first line number for messages.
    mutating func scan(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> FramerScan {
        if end > start && (state == .fieldStart || state == .unquoted)
            && memchr(bytes + start, Int32(DelimitedRecordSplitter.quote), end - start) == nil
        {
            return scanWithoutQuotes(bytes, from: start, to: end)
        }
        var lastBoundary: Int?
        var linesToBoundary = 0
        var lines = 0
        var state = self.state
        let delimiter = self.delimiter
        let quote = DelimitedRecordSplitter.quote
        let newline = DelimitedRecordSplitter.newline
        var index = start
        while index < end {
            let byte = bytes[index]
            switch state {
            case .fieldStart, .unquoted:
                if byte == newline {
                    lines &+= 1
                    lastBoundary = index &+ 1
                    linesToBoundary = lines
                    state = .fieldStart
                } else if byte == delimiter {
                    state = .fieldStart
                } else if byte == quote && state == .fieldStart {
                    state = .quoted
                } else {
                    state = .unquoted
                }
            case .quoted:
                if byte == quote {
                    state = .quoteInQuoted
                } else if byte == newline {
                    lines &+= 1
                }
            case .quoteInQuoted:
                if byte == quote {
                    state = .quoted
                } else if byte == newline {
                    lines &+= 1
                    lastBoundary = index &+ 1
                    linesToBoundary = lines
                    state = .fieldStart
                } else {
                    state = byte == delimiter ? .fieldStart : .unquoted
                }
            }
            index &+= 1
        }
        self.state = state
        return FramerScan(lastBoundary: lastBoundary, unitsToBoundary: linesToBoundary, units: lines)
    }

    /// Most blocks hold no quote at all: then records end at every line feed, found with `memchr` (which
    /// reads 16 or 32 bytes a step; the byte-by-byte count was the reader thread's biggest cost).
    private mutating func scanWithoutQuotes(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> FramerScan {
        var lines = 0
        var lastNewline = -1
        var index = start
        while index < end, let found = memchr(bytes + index, Int32(DelimitedRecordSplitter.newline), end &- index) {
            lastNewline = UnsafeRawPointer(found) - UnsafeRawPointer(bytes)
            lines &+= 1
            index = lastNewline &+ 1
        }
        let last = bytes[end - 1]
        if last == DelimitedRecordSplitter.newline || last == delimiter {
            state = .fieldStart
        } else if lines > 0 || state == .fieldStart {
            state = .unquoted
        }
        guard lines > 0 else { return FramerScan(lastBoundary: nil, unitsToBoundary: 0, units: 0) }
        return FramerScan(lastBoundary: lastNewline + 1, unitsToBoundary: lines, units: lines)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
