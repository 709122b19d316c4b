import Foundation

/// Makes GPX bytes safe to hand to Foundation's `XMLParser` on Linux, whose libxml2 callbacks crash the
/// process on two kinds of input that libxml2 itself lets through (found by fuzzing, issue 13; users cannot
/// patch their Foundation):
/// - a processing instruction without data, `<?name?>`: the callback reads the NULL data as a C string;
/// - an element name holding bytes that are not UTF-8 (`<a\xFF>` inside the root): the callback traps.
/// Processing instructions mean nothing in GPX, so each one after the XML declaration is blanked (newlines
/// kept, so line numbers stay right). A UTF-8 document is cut before its first byte that is not UTF-8: the
/// points before it are read, and the reader reports that byte's line. Other declared encodings (ISO-8859-1
/// files exist) are converted by libxml2 before any callback and are left alone.
enum XMLParserInputGuard {
    struct Guarded {
        var bytes: [UInt8]
        /// The 1-based line and the value of the first byte that is not UTF-8, when the input was cut there.
        var invalidUTF8: (line: Int, byte: UInt8)?
    }

    static func guarded(_ data: Data) -> Guarded {
        var bytes = [UInt8](data)
        var invalid: (line: Int, byte: UInt8)?
        if declaresUTF8(bytes), let offset = firstInvalidUTF8Offset(bytes) {
            invalid = (bytes[..<offset].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }, bytes[offset])
            bytes.removeSubrange(offset...)
        }
        blankProcessingInstructions(&bytes)
        return Guarded(bytes: bytes, invalidUTF8: invalid)
    }

    /// UTF-8 unless a UTF-16/32 byte order mark or an `encoding="…"` in the declaration names another encoding.
    static func declaresUTF8(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0, 0]) { return false }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        guard bytes[start...].starts(with: Array("<?xml".utf8)), let end = find(Array("?>".utf8), in: bytes, from: start) else { return true }
        let declaration = String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
        guard let range = declaration.range(of: "encoding") else { return true }
        let value = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
            .prefix { $0 != "\"" && $0 != "'" && $0 != " " }
        return value == "utf-8" || value == "utf8"
    }

    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0x00...0x7F: index += 1; continue
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return index
            }
            guard index + length <= bytes.count else { return index }
            var continuation = index + 1
            while continuation < index + length {
                guard bytes[continuation] & 0xC0 == 0x80 else { return index }
                continuation += 1
            }
            let second = bytes[index + 1]
            // Overlong forms, UTF-16 surrogates and code points past U+10FFFF.
            if (lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F)
                || (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F) { return index }
            index += length
        }
        return nil
    }

    /// Blanks every `<?target …?>` but a leading XML declaration, keeping newlines.
    static func blankProcessingInstructions(_ bytes: inout [UInt8]) {
        let open = Array("<?".utf8), close = Array("?>".utf8)
        var searchFrom = 0
        var declarationStart = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { declarationStart = 3 }
        if bytes[declarationStart...].starts(with: Array("<?xml".utf8)), let end = find(close, in: bytes, from: declarationStart) {
            searchFrom = end + 2
        }
        while let start = find(open, in: bytes, from: searchFrom) {
            let end = find(close, in: bytes, from: start + 2).map { $0 + 2 } ?? bytes.count
            for index in start..<end where bytes[index] != UInt8(ascii: "\n") { bytes[index] = UInt8(ascii: " ") }
            searchFrom = end
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count, needle.count <= bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
