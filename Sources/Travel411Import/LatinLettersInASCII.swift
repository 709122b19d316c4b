/// The Latin letters that no accent removal turns into ASCII, as Nominatim 5.3 writes them when it compares an
/// `addr:street` with a street's name: both are transliterated to ASCII (`transliteration` of
/// settings/icu_tokenizer.yaml: `:: Latin ()`, `:: Ascii ()`, ICU's Latin-ASCII), and the street tokens are
/// looked up by that form (`_retrieve_full_tokens`, nominatim_db/tokenizer/icu_tokenizer.py;
/// `token_matches_street`, lib-sql/tokenizer/icu_tokenizer.sql). Removing accents (`diacriticInsensitive`) makes
/// `Tráng` `Trang` but leaves the letters without a canonical decomposition: Vietnamese `Đ` (U+0110), which
/// addresses in Ho Chi Minh City write where their street's name has the Icelandic `Ð` (U+00D0), both `d` to
/// Nominatim; `Ø`, `Ł`, `Æ`, `Œ`, `Þ`, `ı`. The table is ICU's Latin-ASCII for those letters (U+00C0–U+024F,
/// U+1E00–U+1EFF; `ß` is `NameKey`'s), lower case, as the key is.
enum LatinLettersInASCII {
    /// `text` with each of the table's letters as ASCII; every other character as it is.
    static func replacing(in text: String) -> String {
        guard text.unicodeScalars.contains(where: { asciiForms[$0.value] != nil }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let ascii = asciiForms[scalar.value] {
                result += ascii
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static let asciiForms: [UInt32: String] = [
        0x00C6: "ae", 0x00D0: "d", 0x00D8: "o", 0x00DE: "th", 0x00E6: "ae", 0x00F0: "d", 0x00F8: "o", 0x00FE: "th",
        0x0110: "d", 0x0111: "d", 0x0126: "h", 0x0127: "h", 0x0131: "i", 0x0132: "ij", 0x0133: "ij", 0x0138: "q",
        0x013F: "l", 0x0140: "l", 0x0141: "l", 0x0142: "l", 0x014A: "n", 0x014B: "n", 0x0152: "oe", 0x0153: "oe",
        0x0166: "t", 0x0167: "t", 0x017F: "s", 0x0180: "b", 0x0181: "b", 0x0182: "b", 0x0183: "b", 0x0187: "c",
        0x0188: "c", 0x0189: "d", 0x018A: "d", 0x018B: "d", 0x018C: "d", 0x0190: "e", 0x0191: "f", 0x0192: "f",
        0x0193: "g", 0x0195: "hv", 0x0196: "i", 0x0197: "i", 0x0198: "k", 0x0199: "k", 0x019A: "l", 0x019D: "n",
        0x019E: "n", 0x01A2: "oi", 0x01A3: "oi", 0x01A4: "p", 0x01A5: "p", 0x01AB: "t", 0x01AC: "t", 0x01AD: "t",
        0x01AE: "t", 0x01B2: "v", 0x01B3: "y", 0x01B4: "y", 0x01B5: "z", 0x01B6: "z", 0x01C4: "dz", 0x01C5: "dz",
        0x01C6: "dz", 0x01C7: "lj", 0x01C8: "lj", 0x01C9: "lj", 0x01CA: "nj", 0x01CB: "nj", 0x01CC: "nj",
        0x01E4: "g", 0x01E5: "g", 0x01F1: "dz", 0x01F2: "dz", 0x01F3: "dz", 0x0221: "d", 0x0224: "z", 0x0225: "z",
        0x0234: "l", 0x0235: "n", 0x0236: "t", 0x0237: "j", 0x0238: "db", 0x0239: "qp", 0x023A: "a", 0x023B: "c",
        0x023C: "c", 0x023D: "l", 0x023E: "t", 0x023F: "s", 0x0240: "z", 0x0243: "b", 0x0244: "u", 0x0246: "e",
        0x0247: "e", 0x0248: "j", 0x0249: "j", 0x024C: "r", 0x024D: "r", 0x024E: "y", 0x024F: "y", 0x1E9A: "a",
        0x1E9C: "s", 0x1E9D: "s", 0x1EFA: "ll", 0x1EFB: "ll", 0x1EFC: "v", 0x1EFD: "v", 0x1EFE: "y", 0x1EFF: "y",
    ]
}
