import Travel411Core

/// Why a JSON text was rejected, and where.
package struct JSONSyntaxError: Error {
    package let reason: String
    /// Offset of the offending byte in the scanned buffer.
    package let offset: Int
}

/// One member of a JSON object, located in the scanned bytes. The key range includes its quotes;
/// the value range is the value's raw text.
struct JSONMember {
    var keyStart: Int
    var keyEnd: Int
    var keyHasEscapes: Bool
    var valueStart: Int
    var valueEnd: Int
}

/// A validating JSON scanner over bytes: it finds where values start and end without building
/// anything. It validates strictly (RFC 8259 grammar, UTF-8 in strings) so that raw input text
/// can be copied into the output and still be valid JSON.
package enum JSONScanner {
    static let maximumDepth = 512

    @inline(__always)
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    @inline(__always)
    package static func skipWhitespace(_ bytes: UnsafePointer<UInt8>, _ index: Int, _ end: Int) -> Int {
        var index = index
        while index < end && isWhitespace(bytes[index]) { index &+= 1 }
        return index
    }

    /// Whether `bytes[start..<end]` is exactly `literal` (a quoted key like `"type"`, say).
    @inline(__always)
    static func equals(_ literal: StaticString, _ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Bool {
        end - start == literal.utf8CodeUnitCount && memcmp(bytes + start, literal.utf8Start, end - start) == 0
    }

    /// Scans the string starting at the quote at `index`; returns the offset after its closing quote.
    static func scanString(_ bytes: UnsafePointer<UInt8>, _ index: Int, _ end: Int, hasEscapes: inout Bool) throws -> Int {
        var index = index &+ 1
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return index &+ 1 }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                guard index &+ 1 < end else { break }
                switch bytes[index &+ 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index &+= 2
                case UInt8(ascii: "u"):
                    guard index &+ 5 < end, (2...5).allSatisfy({ hexValue(bytes[index &+ $0]) != nil }) else {
                        throw JSONSyntaxError(reason: "bad \\u escape", offset: index)
                    }
                    index &+= 6
                default:
                    throw JSONSyntaxError(reason: "bad escape in a string", offset: index)
                }
                continue
            }
            if byte < 0x20 { throw JSONSyntaxError(reason: "control character in a string", offset: index) }
            if byte >= 0x80 {
                let length = UTF8Validation.sequenceLength(bytes, at: index, end: end)
                guard length > 0 else { throw JSONSyntaxError(reason: "invalid UTF-8", offset: index) }
                index &+= length
                continue
            }
            index &+= 1
        }
        throw JSONSyntaxError(reason: "unterminated string", offset: end)
    }

    /// Scans a number per the JSON grammar; returns the offset after it.
    static func scanNumber(_ bytes: UnsafePointer<UInt8>, _ index: Int, _ end: Int) throws -> Int {
        let start = index
        var index = index
        @inline(__always) func isDigit(_ position: Int) -> Bool { position < end && bytes[position] &- 48 < 10 }
        if index < end, bytes[index] == UInt8(ascii: "-") { index &+= 1 }
        guard isDigit(index) else { throw JSONSyntaxError(reason: "bad number", offset: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index &+= 1
        } else {
            while isDigit(index) { index &+= 1 }
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index &+= 1
            guard isDigit(index) else { throw JSONSyntaxError(reason: "bad number", offset: start) }
            while isDigit(index) { index &+= 1 }
        }
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index &+= 1
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index &+= 1 }
            guard isDigit(index) else { throw JSONSyntaxError(reason: "bad number", offset: start) }
            while isDigit(index) { index &+= 1 }
        }
        return index
    }

    /// Whether `bytes[start..<end]` is exactly one JSON number.
    static func isNumber(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Bool {
        guard start < end, let numberEnd = try? scanNumber(bytes, start, end) else { return false }
        return numberEnd == end
    }

    /// Scans any value at `index` (no leading whitespace); returns the offset after it.
    package static func scanValue(_ bytes: UnsafePointer<UInt8>, _ index: Int, _ end: Int, depth: Int = 0) throws -> Int {
        guard index < end else { throw JSONSyntaxError(reason: "a value is missing", offset: index) }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            var ignored = false
            return try scanString(bytes, index, end, hasEscapes: &ignored)
        case UInt8(ascii: "{"):
            return try skipObject(bytes, index, end, depth: depth &+ 1)
        case UInt8(ascii: "["):
            return try skipArray(bytes, index, end, depth: depth &+ 1)
        case UInt8(ascii: "t"):
            return try scanLiteral("true", bytes, index, end)
        case UInt8(ascii: "f"):
            return try scanLiteral("false", bytes, index, end)
        case UInt8(ascii: "n"):
            return try scanLiteral("null", bytes, index, end)
        default:
            return try scanNumber(bytes, index, end)
        }
    }

    private static func scanLiteral(_ literal: StaticString, _ bytes: UnsafePointer<UInt8>, _ index: Int, _ end: Int) throws -> Int {
        let length = literal.utf8CodeUnitCount
        guard index &+ length <= end, memcmp(bytes + index, literal.utf8Start, length) == 0 else {
            throw JSONSyntaxError(reason: "unexpected character", offset: index)
        }
        return index &+ length
    }

    private static func skipObject(_ bytes: UnsafePointer<UInt8>, _ index: Int, _ end: Int, depth: Int) throws -> Int {
        guard depth <= maximumDepth else { throw JSONSyntaxError(reason: "nested too deeply", offset: index) }
        var index = skipWhitespace(bytes, index &+ 1, end)
        if index < end, bytes[index] == UInt8(ascii: "}") { return index &+ 1 }
        while true {
            guard index < end, bytes[index] == UInt8(ascii: "\"") else { throw JSONSyntaxError(reason: "expected a key", offset: index) }
            var ignored = false
            index = skipWhitespace(bytes, try scanString(bytes, index, end, hasEscapes: &ignored), end)
            guard index < end, bytes[index] == UInt8(ascii: ":") else { throw JSONSyntaxError(reason: "expected ':'", offset: index) }
            index = skipWhitespace(bytes, index &+ 1, end)
            index = skipWhitespace(bytes, try scanValue(bytes, index, end, depth: depth), end)
            guard index < end else { break }
            if bytes[index] == UInt8(ascii: ",") {
                index = skipWhitespace(bytes, index &+ 1, end)
                continue
            }
            if bytes[index] == UInt8(ascii: "}") { return index &+ 1 }
            throw JSONSyntaxError(reason: "expected ',' or '}'", offset: index)
        }
        throw JSONSyntaxError(reason: "unterminated object", offset: end)
    }

    private static func skipArray(_ bytes: UnsafePointer<UInt8>, _ index: Int, _ end: Int, depth: Int) throws -> Int {
        guard depth <= maximumDepth else { throw JSONSyntaxError(reason: "nested too deeply", offset: index) }
        var index = skipWhitespace(bytes, index &+ 1, end)
        if index < end, bytes[index] == UInt8(ascii: "]") { return index &+ 1 }
        while true {
            index = skipWhitespace(bytes, try scanValue(bytes, index, end, depth: depth), end)
            guard index < end else { break }
            if bytes[index] == UInt8(ascii: ",") {
                index = skipWhitespace(bytes, index &+ 1, end)
                continue
            }
            if bytes[index] == UInt8(ascii: "]") { return index &+ 1 }
            throw JSONSyntaxError(reason: "expected ',' or ']'", offset: index)
        }
        throw JSONSyntaxError(reason: "unterminated array", offset: end)
    }

    /// Scans the object at `index`, recording its top-level members; returns the offset after '}'.
    static func scanObjectMembers(_ bytes: UnsafePointer<UInt8>, _ index: Int, _ end: Int, into members: inout [JSONMember]) throws
        -> Int
    {
        members.removeAll(keepingCapacity: true)
        guard index < end, bytes[index] == UInt8(ascii: "{") else { throw JSONSyntaxError(reason: "expected an object", offset: index) }
        var index = skipWhitespace(bytes, index &+ 1, end)
        if index < end, bytes[index] == UInt8(ascii: "}") { return index &+ 1 }
        while true {
            guard index < end, bytes[index] == UInt8(ascii: "\"") else { throw JSONSyntaxError(reason: "expected a key", offset: index) }
            let keyStart = index
            var keyHasEscapes = false
            let keyEnd = try scanString(bytes, index, end, hasEscapes: &keyHasEscapes)
            index = skipWhitespace(bytes, keyEnd, end)
            guard index < end, bytes[index] == UInt8(ascii: ":") else { throw JSONSyntaxError(reason: "expected ':'", offset: index) }
            let valueStart = skipWhitespace(bytes, index &+ 1, end)
            let valueEnd = try scanValue(bytes, valueStart, end, depth: 1)
            members.append(
                JSONMember(keyStart: keyStart, keyEnd: keyEnd, keyHasEscapes: keyHasEscapes, valueStart: valueStart, valueEnd: valueEnd))
            index = skipWhitespace(bytes, valueEnd, end)
            guard index < end else { break }
            if bytes[index] == UInt8(ascii: ",") {
                index = skipWhitespace(bytes, index &+ 1, end)
                continue
            }
            if bytes[index] == UInt8(ascii: "}") { return index &+ 1 }
            throw JSONSyntaxError(reason: "expected ',' or '}'", offset: index)
        }
        throw JSONSyntaxError(reason: "unterminated object", offset: end)
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte &- 48)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte &- 87)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte &- 55)
        default: return nil
        }
    }

    /// Decodes the already-validated string literal `bytes[start..<end]` (quotes included) to UTF-8.
    static func decodeString(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, into output: GrowableByteArray) {
        var index = start &+ 1
        let contentEnd = end &- 1
        var runStart = index
        while index < contentEnd {
            guard bytes[index] == UInt8(ascii: "\\") else {
                index &+= 1
                continue
            }
            output.append(bytes + runStart, count: index &- runStart)
            let escaped = bytes[index &+ 1]
            index &+= 2
            switch escaped {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = readHex4(bytes, index)
                index &+= 4
                if (0xD800...0xDBFF).contains(scalar), index &+ 5 < contentEnd &+ 1,
                    bytes[index] == UInt8(ascii: "\\"), bytes[index &+ 1] == UInt8(ascii: "u")
                {
                    let low = readHex4(bytes, index &+ 2)
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 &+ ((scalar &- 0xD800) << 10) &+ (low &- 0xDC00)
                        index &+= 6
                    }
                }
                appendUTF8(Unicode.Scalar(scalar) ?? "\u{FFFD}", to: output)
            default:
                output.append(escaped)  // \" \\ \/
            }
            runStart = index
        }
        output.append(bytes + runStart, count: contentEnd &- runStart)
    }

    private static func readHex4(_ bytes: UnsafePointer<UInt8>, _ index: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 { value = value << 4 | (hexValue(bytes[index &+ offset]) ?? 0) }
        return value
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to output: GrowableByteArray) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            output.append(UInt8(value))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | value >> 6))
            output.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | value >> 12))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        default:
            output.append(UInt8(0xF0 | value >> 18))
            output.append(UInt8(0x80 | value >> 12 & 0x3F))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
