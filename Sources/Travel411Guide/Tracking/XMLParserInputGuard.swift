import Foundation
import Travel411Core
import Travel411Store

/// Makes GPX bytes safe to hand to Foundation's `XMLParser` on Linux, whose libxml2 callbacks crash the
/// process on two kinds of input that libxml2 itself lets through (found by fuzzing, issue 13; users cannot
/// patch their Foundation):
/// - a processing instruction without data, `<?name?>`: the callback reads the NULL data as a C string;
/// - an element name holding bytes that are not UTF-8 (`<a\xFF>` inside the root): the callback traps.
/// Processing instructions mean nothing in GPX, so each one after the XML declaration is blanked (newlines
/// kept, so line numbers stay right). A UTF-8 document is cut before its first byte that is not UTF-8: the
/// points before it are read, and the reader reports that byte's line. A document in another encoding
/// (ISO-8859-1 files exist) is converted to UTF-8 first; one whose encoding cannot be read is refused.
enum XMLParserInputGuard {
    struct Guarded {
        var bytes: [UInt8]
        /// Why the input was cut (at `line`, 1-based) or refused, when it was.
        var problem: (line: Int, detail: String)?
    }

    static func guarded(_ data: Data) -> Guarded {
        var bytes = [UInt8](data)
        var problem: (line: Int, detail: String)?
        // Another encoding is converted here, so that libxml2 only ever sees UTF-8: a name it does not know
        // ("I?O-8859-1") made it pass the raw bytes on, which crashed the parser like any other bad UTF-8.
        if let declared = declaredEncoding(bytes), !["utf-8", "utf8"].contains(declared.lowercased()) {
            guard let encoding = Self.encoding(named: declared) else {
                return Guarded(
                    bytes: [],
                    problem: (
                        1,
                        "the XML declaration names the encoding “\(DisplayText.sanitized(declared, limit: 40))”, "
                            + "which cannot be read here; convert the file to UTF-8"
                    ))
            }
            guard let text = String(data: Data(bytes), encoding: encoding) else {
                return Guarded(bytes: [], problem: (1, "the file is not valid \(declared) text, as its XML declaration says it is"))
            }
            bytes = Array(text.utf8)
            // The declaration would now be wrong: blank it (it is ASCII, so the lines keep their numbers).
            if let range = declarationRange(bytes) {
                for index in range where bytes[index] != UInt8(ascii: "\n") { bytes[index] = UInt8(ascii: " ") }
            }
        }
        if let offset = firstInvalidUTF8Offset(bytes) {
            let line = bytes[..<offset].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let byte = String(bytes[offset], radix: 16, uppercase: true)
            problem = (line, "byte 0x\(byte) is not UTF-8, which the file is in; give its encoding in the XML declaration")
            bytes.removeSubrange(offset...)
        }
        blankProcessingInstructions(&bytes)
        return Guarded(bytes: bytes, problem: problem)
    }

    /// The encodings GPX files are found in besides UTF-8, by their IANA names.
    static func encoding(named name: String) -> String.Encoding? {
        switch name.lowercased() {
        case "iso-8859-1", "iso8859-1", "latin1", "l1", "iso_8859-1": return .isoLatin1
        case "iso-8859-2", "iso8859-2", "latin2": return .isoLatin2
        case "windows-1250", "cp1250": return .windowsCP1250
        case "windows-1251", "cp1251": return .windowsCP1251
        case "windows-1252", "cp1252": return .windowsCP1252
        case "windows-1253", "cp1253": return .windowsCP1253
        case "windows-1254", "cp1254": return .windowsCP1254
        case "us-ascii", "ascii": return .ascii
        case "utf-16", "utf16": return .utf16
        default: return nil
        }
    }

    /// The `encoding="…"` of a leading XML declaration; UTF-16 text (a byte order mark) counts as "UTF-16".
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return "UTF-16" }
        guard let range = declarationRange(bytes) else { return nil }
        let declaration = String(decoding: bytes[range], as: UTF8.self)
        guard let key = declaration.range(of: "encoding") else { return nil }
        let name = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
            .prefix { $0 != "\"" && $0 != "'" && $0 != " " && $0 != "?" }
        return String(name)
    }

    /// The bytes of a leading `<?xml …?>` (after a UTF-8 byte order mark). Like libxml2, only `<?xml` and a
    /// blank make a declaration: `<?xml?>` or `<?xml-stylesheet?>` is a processing instruction, to be blanked
    /// like any other (the fuzzer's third crash was `<?xml?>` kept as if it were the declaration).
    static func declarationRange(_ bytes: [UInt8]) -> Range<Int>? {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let blanks: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
        guard bytes[start...].starts(with: Array("<?xml".utf8)), start + 5 < bytes.count, blanks.contains(bytes[start + 5]),
            let end = find(Array("?>".utf8), in: bytes, from: start)
        else {
            return nil
        }
        return start..<end + 2
    }

    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0x00...0x7F:
                index += 1
                continue
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
                || (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F)
            {
                return index
            }
            index += length
        }
        return nil
    }

    /// Blanks every `<?target …?>` but a leading XML declaration, keeping newlines.
    static func blankProcessingInstructions(_ bytes: inout [UInt8]) {
        let open = Array("<?".utf8), close = Array("?>".utf8)
        var searchFrom = declarationRange(bytes)?.upperBound ?? 0
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
