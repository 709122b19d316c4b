import Foundation

/// A name's letters and digits, lower case, `ß` as `ss` (`Bendererstrasse` is `Benderer Strasse`): what
/// `OSMParentStreets` matches an `addr:street` with its street by, and place nodes with their boundaries.
///
/// Defined by `reference` (the stdlib's lower case, Foundation's replacing and its `alphanumerics`), and computed
/// on the bytes: an import asks for the key of every street and of every address and POI naming one, and
/// Foundation's replacing cost more than the rest of the match. Lower case and the letters-and-digits filter
/// go a scalar at a time, so the key of a name in Latin letters (every scalar below U+0300) is the keys of its
/// scalars end to end, each computed once by `reference`. The one step that does not go a scalar at a time is
/// the replacing of `ß`, which compares characters (a `ß` followed by a combining mark is another character,
/// left as it is); every scalar that can join a character to the one before it lies above U+02FF. A name with
/// any such scalar (other scripts, combining marks) takes `reference` itself, once, as before.
enum NameKey {
    static func of(_ name: String) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(name.utf8.count)
        var isASCII = true
        for byte in name.utf8 {
            guard byte < 0x80 else {
                isASCII = false
                break
            }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): key.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): key.append(byte | 0x20)
            default: break
            }
        }
        if isASCII { return key }
        return ofUnicode(name)
    }

    /// The name's words, each its key, one space apart: what `OSMParentStreets` matches an `addr:street` by. Nominatim
    /// 5.3 normalises punctuation, symbols and spaces to one space and keeps the words apart (settings/icu_tokenizer.yaml:
    /// `[[:Punctuation:][:Symbol:]] > '-'`, then `[-:] > ' '` and `[:Space:]+ > ' '`), so `Road135` is not `Road 135`;
    /// the same characters `of` drops end a word here.
    static func words(_ name: String) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(name.utf8.count)
        var apart = false
        for byte in name.utf8 {
            guard byte < 0x80 else { return wordsOfUnicode(name) }
            let kept: UInt8
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): kept = byte
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): kept = byte | 0x20
            default:
                apart = !key.isEmpty
                continue
            }
            if apart { key.append(UInt8(ascii: " ")) }
            apart = false
            key.append(kept)
        }
        return key
    }

    private static func wordsOfUnicode(_ name: String) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(name.utf8.count)
        var apart = false
        for scalar in name.unicodeScalars {
            guard scalar.value < 0x300 else { return referenceWords(name) }
            let scalarKey = lowScalarKeys[Int(scalar.value)]
            guard !scalarKey.isEmpty else {
                apart = !key.isEmpty
                continue
            }
            if apart { key.append(UInt8(ascii: " ")) }
            apart = false
            key.append(contentsOf: scalarKey)
        }
        return key
    }

    /// `words`' definition: `reference`'s lower case and `ß`, each run of the scalars it drops one space between words.
    static func referenceWords(_ name: String) -> [UInt8] {
        let words = name.lowercased().replacingOccurrences(of: "ß", with: "ss").unicodeScalars
            .split { !CharacterSet.alphanumerics.contains($0) }
            .map { String(String.UnicodeScalarView($0)) }
        return Array(words.joined(separator: " ").utf8)
    }

    private static func ofUnicode(_ name: String) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            guard scalar.value < 0x300 else { return reference(name) }
            key.append(contentsOf: lowScalarKeys[Int(scalar.value)])
        }
        return key
    }

    /// The keys of the scalars below U+0300 (Latin letters, their accented forms, punctuation), by scalar:
    /// `reference` of each alone.
    private static let lowScalarKeys: [[UInt8]] = (0..<0x300).map { value in
        Unicode.Scalar(UInt32(value)).map { reference(String($0)) } ?? []
    }

    /// The definition: the stdlib's lower case, `ß` replaced by `ss` as Foundation replaces, and the scalars
    /// Foundation counts as letters, marks and digits.
    static func reference(_ name: String) -> [UInt8] {
        Array(
            name.lowercased().replacingOccurrences(of: "ß", with: "ss").unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0)
            }.map(String.init).joined().utf8)
    }
}
