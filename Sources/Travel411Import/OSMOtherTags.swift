import Travel411Store
import Travel411StoreWriters

/// GDAL's OSM driver keeps every tag its configuration does not give a column of its own in one text
/// field, `other_tags`, written as a PostgreSQL hstore: `"addr:street"=>"Kaivokatu","building"=>"yes"`.
/// A shapefile cuts that text at 254 bytes, so the last pair is often incomplete: it is left out, and
/// every whole pair before it is read.
enum OSMOtherTags {
    /// The value of `key`, nil when the text has no complete pair with that key.
    package static func value(of key: String, in text: String) -> String? {
        var found: String?
        forEachPair(in: text) { pairKey, value in
            if pairKey == key {
                found = value
                return false
            }
            return true
        }
        return found
    }

    /// Every complete pair, in order.
    static func pairs(in text: String) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        forEachPair(in: text) { key, value in
            pairs.append((key, value))
            return true
        }
        return pairs
    }

    /// Calls `body` for each complete pair until it returns false.
    private static func forEachPair(in text: String, _ body: (String, String) -> Bool) {
        var scanner = Scanner(bytes: Array(text.utf8))
        while true {
            scanner.skip { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") }
            guard let key = scanner.quoted() else { return }
            scanner.skip { $0 == UInt8(ascii: " ") }
            guard scanner.consume("=>") else { return }
            scanner.skip { $0 == UInt8(ascii: " ") }
            guard let value = scanner.quoted() else { return }
            if !body(key, value) { return }
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skip(while predicate: (UInt8) -> Bool) {
            while index < bytes.count, predicate(bytes[index]) { index += 1 }
        }

        mutating func consume(_ literal: String) -> Bool {
            let literalBytes = Array(literal.utf8)
            guard bytes.count - index >= literalBytes.count, Array(bytes[index..<index + literalBytes.count]) == literalBytes else {
                return false
            }
            index += literalBytes.count
            return true
        }

        /// A double-quoted string with `\"` and `\\` escapes; nil when it is not closed (cut off).
        package mutating func quoted() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            var position = index + 1
            var text: [UInt8] = []
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\\"), position + 1 < bytes.count {
                    text.append(bytes[position + 1])
                    position += 2
                } else if byte == UInt8(ascii: "\"") {
                    index = position + 1
                    return String(decoding: text, as: UTF8.self)
                } else {
                    text.append(byte)
                    position += 1
                }
            }
            return nil
        }
    }
}
