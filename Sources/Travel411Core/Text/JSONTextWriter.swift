/// Writes JSON string literals from raw bytes.
///
/// Quotes, backslashes and control characters are escaped; valid UTF-8 passes through unescaped;
/// invalid UTF-8 (say a Latin-1 byte in a CSV field) becomes U+FFFD so the output always parses.
package enum JSONTextWriter {
    package static func appendString(_ bytes: UnsafePointer<UInt8>, count: Int, to output: GrowableByteArray) {
        output.reserve(count &+ 2)
        output.append(UInt8(ascii: "\""))
        appendEscapedContent(bytes, count: count, to: output)
        output.append(UInt8(ascii: "\""))
    }

    package static func appendString(_ text: String, to output: GrowableByteArray) {
        var text = text
        text.withUTF8 { utf8 in
            if let start = utf8.baseAddress {
                appendString(start, count: utf8.count, to: output)
            } else {
                output.append("\"\"")
            }
        }
    }

    /// The bytes between the quotes.
    static func appendEscapedContent(_ bytes: UnsafePointer<UInt8>, count: Int, to output: GrowableByteArray) {
        var runStart = 0
        var index = 0
        while index < count {
            let byte = bytes[index]
            if byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                index &+= 1
                continue
            }
            if byte >= 0x80 {
                let length = UTF8Validation.sequenceLength(bytes, at: index, end: count)
                if length > 0 {
                    index &+= length
                    continue
                }
                output.append(bytes + runStart, count: index &- runStart)
                output.append(replacementCharacter)
                index &+= 1
                runStart = index
                continue
            }
            output.append(bytes + runStart, count: index &- runStart)
            appendEscape(for: byte, to: output)
            index &+= 1
            runStart = index
        }
        output.append(bytes + runStart, count: count &- runStart)
    }

    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    private static func appendEscape(for byte: UInt8, to output: GrowableByteArray) {
        switch byte {
        case UInt8(ascii: "\""): output.append("\\\"")
        case UInt8(ascii: "\\"): output.append("\\\\")
        case UInt8(ascii: "\n"): output.append("\\n")
        case UInt8(ascii: "\r"): output.append("\\r")
        case UInt8(ascii: "\t"): output.append("\\t")
        case 0x08: output.append("\\b")
        case 0x0C: output.append("\\f")
        default:
            let hexDigits: StaticString = "0123456789abcdef"
            output.append("\\u00")
            output.append(hexDigits.utf8Start[Int(byte >> 4)])
            output.append(hexDigits.utf8Start[Int(byte & 0x0F)])
        }
    }
}

/// UTF-8 well-formedness, per the Unicode standard's table of valid byte sequences
/// (no overlong forms, no surrogates, nothing above U+10FFFF).
package enum UTF8Validation {
    /// The length of the valid sequence starting at `index` (a non-ASCII byte), or 0 if invalid.
    @inline(__always)
    package static func sequenceLength(_ bytes: UnsafePointer<UInt8>, at index: Int, end: Int) -> Int {
        let lead = bytes[index]
        @inline(__always) func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            let position = index &+ offset
            return position < end && bytes[position] >= low && bytes[position] <= high
        }
        switch lead {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0:
            return continuation(1, 0xA0) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : 0
        case 0xED:
            return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : 0
        case 0xF0:
            return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4:
            return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default:
            return 0
        }
    }
}
