import Travel411Core

/// Writes CSV or TSV fields, quoting only when the field needs it (RFC 4180 style for both:
/// a field holding the delimiter, a quote, CR or LF is quoted, with inner quotes doubled).
package struct DelimitedTextWriter: Sendable {
    let delimiter: UInt8
    /// Every byte that may need quoting is below this: the quote, CR, LF and the delimiter. It is
    /// 0x3C for ',' ';' and tab, so most bytes fail the first test; a '|' delimiter raises it.
    private let specialBytesLimit: UInt8

    package init(delimiter: UInt8) {
        self.delimiter = delimiter
        specialBytesLimit = max(0x3C, delimiter &+ 1)
    }

    /// Whether `byte` makes a field need quotes: the delimiter, a quote, CR or LF.
    @inline(__always) private func isSpecial(_ byte: UInt8) -> Bool {
        byte < specialBytesLimit
            && (byte == delimiter || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r"))
    }

    /// Whether `appendField` would quote these bytes.
    @inline(__always) func needsQuotes(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        var index = 0
        while index < count {
            if isSpecial(bytes[index]) { return true }
            index &+= 1
        }
        return false
    }

    /// Whether fields written one after another with `delimiters` delimiters between them, unquoted, would
    /// need quotes somewhere: any quote, CR or LF, or more delimiters than were written between them.
    ///
    /// A row's printed fields are checked at once, sixteen bytes a step (SSE2's byte compares, in the baseline
    /// x86-64 target), rather than field by field (most are shorter than eight bytes). Each step's delimiters are
    /// counted per lane, in blocks of at most 15 steps and the last one (a lane then counts at most 16, and the
    /// eight lanes of a word at most 128: its bytes are summed by one multiplication without carrying past its top
    /// byte). The last bytes are the last sixteen, the lanes already checked left out: a row's check costs its steps
    /// and no byte-by-byte tail.
    func fieldsNeedQuotes(_ bytes: UnsafePointer<UInt8>, count: Int, delimiters: Int) -> Bool {
        typealias Lanes = SIMD16<UInt8>
        guard count >= Lanes.scalarCount else { return wordFieldsNeedQuotes(bytes, count: count, delimiters: delimiters) }
        let delimiterLanes = Lanes(repeating: delimiter)
        let quotes = Lanes(repeating: UInt8(ascii: "\"")), lineFeeds = Lanes(repeating: 0x0A), returns = Lanes(repeating: 0x0D)
        var breaks = SIMDMask<SIMD16<Int8>>(repeating: false)
        var delimitersFound = 0
        var index = 0
        while true {
            var laneCounts = Lanes(repeating: 0)
            let blockEnd = min(count, index &+ 15 &* Lanes.scalarCount)
            while index &+ Lanes.scalarCount <= blockEnd {
                let lanes = UnsafeRawPointer(bytes + index).loadUnaligned(as: Lanes.self)
                breaks .|= lanes .== quotes .| lanes .== lineFeeds .| lanes .== returns
                laneCounts &+= Lanes(repeating: 0).replacing(with: 1, where: lanes .== delimiterLanes)
                index &+= Lanes.scalarCount
            }
            let left = count &- index
            let isLast = left < Lanes.scalarCount
            if isLast, left > 0 {
                // The last sixteen bytes, of which the first 16 - left were checked above.
                let positions = Lanes(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
                let unchecked = positions .>= Lanes(repeating: UInt8(truncatingIfNeeded: Lanes.scalarCount &- left))
                let lanes = UnsafeRawPointer(bytes + (count &- Lanes.scalarCount)).loadUnaligned(as: Lanes.self)
                breaks .|= unchecked .& (lanes .== quotes .| lanes .== lineFeeds .| lanes .== returns)
                laneCounts &+= Lanes(repeating: 0).replacing(with: 1, where: unchecked .& (lanes .== delimiterLanes))
            }
            let words = unsafeBitCast(laneCounts, to: SIMD2<UInt64>.self)
            let ones: UInt64 = 0x0101_0101_0101_0101
            delimitersFound &+= Int(truncatingIfNeeded: (words[0] &* ones) >> 56) &+ Int(truncatingIfNeeded: (words[1] &* ones) >> 56)
            if isLast { break }
        }
        let broken = unsafeBitCast(breaks, to: SIMD2<UInt64>.self)
        return broken[0] | broken[1] != 0 || delimitersFound != delimiters
    }

    /// `fieldsNeedQuotes` for 8 to 15 bytes (fewer: `shortFieldsNeedQuotes`), eight bytes a step. A byte equal to
    /// `b` is a zero byte of the word XORed with `b` repeated; `(w - 0x01…) & ~w & 0x80…` is non-zero exactly when
    /// `w` has a zero byte, and `~(((w & 0x7F…) + 0x7F…) | w | 0x7F…)` has the high bit of exactly its zero bytes,
    /// for counting them (Anderson, "Bit Twiddling Hacks": "Determine if a word has a zero byte"; Warren, Hacker's
    /// Delight, 6-1). Each word's delimiters are summed by one multiplication (the baseline x86-64 target has no
    /// popcount instruction). The last bytes are the last eight, shifted past those already checked.
    private func wordFieldsNeedQuotes(_ bytes: UnsafePointer<UInt8>, count: Int, delimiters: Int) -> Bool {
        guard count >= 8 else { return shortFieldsNeedQuotes(bytes, count: count, delimiters: delimiters) }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let delimiterWord = UInt64(delimiter) &* ones
        var breaks: UInt64 = 0
        var delimitersFound = 0
        var index = 0
        /// `lanes`: one bit at the bottom of each byte to count delimiters in.
        @inline(__always) func check(_ word: UInt64, lanes: UInt64) {
            let quotes = word ^ (0x22 &* ones), lineFeeds = word ^ (0x0A &* ones), returns = word ^ (0x0D &* ones)
            breaks |= ((quotes &- ones) & ~quotes) | ((lineFeeds &- ones) & ~lineFeeds) | ((returns &- ones) & ~returns)
            let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
            let delimiterBytes = word ^ delimiterWord
            let found = (~(((delimiterBytes & lows) &+ lows) | delimiterBytes | lows)) >> 7 & lanes
            delimitersFound &+= Int(truncatingIfNeeded: (found &* ones) >> 56)
        }
        while index &+ 8 <= count {
            check(UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)), lanes: ones)
            index &+= 8
        }
        let left = count &- index
        if left > 0 {
            // The bytes shifted out were checked; the zero bytes shifted in are no quote, CR or LF, and their lanes
            // are left out of the delimiters' count (a NUL delimiter would match them).
            let shift = UInt64(8 &* (8 &- left))
            let last = UInt64(littleEndian: UnsafeRawPointer(bytes + (count &- 8)).loadUnaligned(as: UInt64.self))
            check(last >> shift, lanes: ones >> shift)
        }
        return breaks & 0x8080_8080_8080_8080 != 0 || delimitersFound != delimiters
    }

    /// `fieldsNeedQuotes` for fewer than eight bytes.
    private func shortFieldsNeedQuotes(_ bytes: UnsafePointer<UInt8>, count: Int, delimiters: Int) -> Bool {
        var delimitersFound = 0
        var index = 0
        while index < count {
            let byte = bytes[index]
            if byte == delimiter {
                delimitersFound &+= 1
            } else if isSpecial(byte) {
                return true
            }
            index &+= 1
        }
        return delimitersFound != delimiters
    }

    func appendField(_ bytes: UnsafePointer<UInt8>, count: Int, to output: GrowableByteArray) {
        // One pass for the common case: copy while checking, and start over quoted only if needed.
        output.reserve(count)
        let start = output.count
        let destination = output.base + start
        var index = 0
        while index < count {
            let byte = bytes[index]
            if isSpecial(byte) { break }
            destination[index] = byte
            index &+= 1
        }
        if index == count {
            output.count = start &+ count
            return
        }
        output.reserve(count &+ 2)
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<count where bytes[index] == UInt8(ascii: "\"") {
            output.append(bytes + runStart, count: index &+ 1 &- runStart)  // the quote itself...
            output.append(UInt8(ascii: "\""))  // ...and its double
            runStart = index &+ 1
        }
        output.append(bytes + runStart, count: count &- runStart)
        output.append(UInt8(ascii: "\""))
    }

    package func appendField(_ text: String, to output: GrowableByteArray) {
        var text = text
        text.withUTF8 { utf8 in
            if let start = utf8.baseAddress { appendField(start, count: utf8.count, to: output) }
        }
    }
}
