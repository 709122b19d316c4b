import Foundation

/// JSON text pieces for single answers: strings escaped by the batch's `JSONTextWriter` (one
/// escaper for every JSON travel411 writes), numbers in their shortest round-tripping form.
public enum JSONText {
    /// A byte that a JSON string must escape: a control character, a quote or a backslash.
    @inline(__always) private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    public static func string(_ text: String) -> String {
        // Most names need no escaping (a Swift string is valid UTF-8 already): skip the buffer.
        if !text.utf8.contains(where: needsEscape) { return "\"" + text + "\"" }
        let buffer = GrowableByteArray(capacity: text.utf8.count + 8)
        JSONTextWriter.appendString(text, to: buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    /// `string(text)` appended to `output`, without making the quoted copy first.
    package static func append(_ text: String, to output: inout String) {
        if !text.utf8.contains(where: needsEscape) {
            output += "\""
            output += text
            output += "\""
        } else {
            output += string(text)
        }
    }

    /// `string(text)` appended to bytes: one scan of the text's UTF-8, copied whole when nothing needs escaping.
    package static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        let plain = text.withUTF8 { !$0.contains(where: needsEscape) }
        guard plain else { return output.append(contentsOf: string(text).utf8) }
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: text.utf8)
        output.append(UInt8(ascii: "\""))
    }

    /// `value` in decimal digits, zero-padded to `width`, without making a String.
    package static func appendDecimal(_ value: UInt64, width: Int = 1, to output: inout [UInt8]) {
        var count = 0, rest = value
        repeat {
            count += 1
            rest /= 10
        } while rest > 0
        output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(count, width)))
        var index = output.count - 1
        rest = value
        while rest > 0 {
            output[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
    }

    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return Coordinate.format(value)
    }

    package static func value(_ text: String?, numeric: Bool) -> String {
        guard let text else { return "null" }
        return numeric ? text : string(text)
    }
}
