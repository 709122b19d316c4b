/// A character encoding for DBF text, as named by a .cpg file or a DBF language driver id.
struct DBFTextEncoding: Hashable {
    /// The name users know, e.g. "windows-1252".
    let name: String
    /// The name glibc's iconv knows; nil for UTF-8 and ISO-8859-1, which are decoded without it.
    let iconvName: String?

    static let utf8 = DBFTextEncoding(name: "UTF-8", iconvName: nil)
    static let latin1 = DBFTextEncoding(name: "ISO-8859-1", iconvName: nil)

    /// A Windows code page number (as .cpg files and LDIDs give them).
    static func codePage(_ number: Int) -> DBFTextEncoding? {
        switch number {
        case 65001, 20127: return .utf8  // US-ASCII is a subset of UTF-8
        case 28591: return .latin1
        case 28592...28599: return isoLatin(number - 28590)
        case 28603: return isoLatin(13)
        case 28605: return isoLatin(15)
        case 1250...1258, 874: return DBFTextEncoding(name: "windows-\(number)", iconvName: "CP\(number)")
        case 437, 720, 737, 775, 850, 852, 855, 857, 858, 860...866, 869, 932, 936, 949, 950:
            return DBFTextEncoding(name: "CP\(number)", iconvName: "CP\(number)")
        case 54936: return DBFTextEncoding(name: "GB18030", iconvName: "GB18030")
        case 10000: return DBFTextEncoding(name: "MacRoman", iconvName: "MACINTOSH")
        case 20866: return DBFTextEncoding(name: "KOI8-R", iconvName: "KOI8-R")
        case 21866: return DBFTextEncoding(name: "KOI8-U", iconvName: "KOI8-U")
        default: return nil
        }
    }

    /// ISO-8859-`part`.
    static func isoLatin(_ part: Int) -> DBFTextEncoding? {
        guard (1...16).contains(part), part != 12 else { return nil }
        return part == 1 ? .latin1 : DBFTextEncoding(name: "ISO-8859-\(part)", iconvName: "ISO-8859-\(part)")
    }

    /// Reads the text of a .cpg file: "UTF-8", "65001", "ANSI 1250", "CP1252", "ISO-8859-1", "88591", "936", "GBK", …
    /// Returns nil when the text is not a code page name (an HTML page saved by mistake, say).
    static func fromCodePageFile(_ text: String) -> DBFTextEncoding? {
        let firstLine = text.drop(while: { $0 == "\u{FEFF}" || $0.isWhitespace })
            .prefix(while: { $0 != "\n" && $0 != "\r" })
            .trimmingTrailingWhitespace()
        guard !firstLine.isEmpty, firstLine.count <= 40,
            firstLine.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || " -_.:".contains($0)) })
        else { return nil }
        let compact = firstLine.uppercased().filter { $0.isLetter || $0.isNumber }

        switch compact {
        case "UTF8", "UTF8BOM", "ASCII", "USASCII": return .utf8
        case "LATIN1", "ISOLATIN1", "L1": return .latin1
        case "GBK", "GB2312", "EUCCN": return codePage(936)
        case "GB18030": return codePage(54936)
        case "BIG5": return codePage(950)
        case "SJIS", "SHIFTJIS": return codePage(932)
        case "EUCKR": return codePage(949)
        case "EUCJP": return DBFTextEncoding(name: "EUC-JP", iconvName: "EUC-JP")
        case "KOI8R": return codePage(20866)
        case "KOI8U": return codePage(21866)
        case "MACROMAN", "MACINTOSH": return codePage(10000)
        default: break
        }
        for prefix in ["ISO8859", "8859"] where compact.hasPrefix(prefix) {
            if let part = Int(compact.dropFirst(prefix.count)) { return isoLatin(part) }
        }
        for prefix in ["ANSI", "WINDOWS", "WIN", "CP", "IBM", "OEM", "DOS", ""] where compact.hasPrefix(prefix) {
            if let number = Int(compact.dropFirst(prefix.count)) { return codePage(number) }
        }
        // Some other name glibc may know ("ISO-2022-JP", "TIS-620"); the decoder checks with iconv.
        return DBFTextEncoding(name: String(firstLine), iconvName: String(firstLine))
    }

    /// The encoding a dBASE language driver id (byte 29 of the .dbf header) stands for; nil for 0 and unknown ids.
    static func fromLanguageDriver(_ id: UInt8) -> DBFTextEncoding? {
        languageDriverCodePages[id].flatMap(codePage)
    }

    /// Language driver ids and the Windows code pages they mean, as the dBASE and ESRI documentation list them.
    private static let languageDriverCodePages: [UInt8: Int] = [
        0x01: 437, 0x02: 850, 0x03: 1252, 0x04: 10000, 0x08: 865, 0x09: 437, 0x0A: 850, 0x0B: 437,
        0x0D: 437, 0x0E: 850, 0x0F: 437, 0x10: 850, 0x11: 437, 0x12: 850, 0x13: 932, 0x14: 850,
        0x15: 437, 0x16: 850, 0x17: 865, 0x18: 437, 0x19: 437, 0x1A: 850, 0x1B: 437, 0x1C: 863,
        0x1D: 850, 0x1F: 852, 0x22: 852, 0x23: 852, 0x24: 860, 0x25: 850, 0x26: 866, 0x37: 850,
        0x40: 852, 0x4D: 936, 0x4E: 949, 0x4F: 950, 0x50: 874, 0x57: 1252, 0x58: 1252, 0x59: 1252,
        0x64: 852, 0x65: 866, 0x66: 865, 0x67: 861, 0x6A: 737, 0x6B: 857, 0x6C: 863,
        0x78: 950, 0x79: 949, 0x7A: 936, 0x7B: 932, 0x7C: 874, 0x86: 737, 0x87: 852, 0x88: 857,
        0xC8: 1250, 0xC9: 1251, 0xCA: 1254, 0xCB: 1253, 0xCC: 1257,
    ]
}

private extension Substring {
    func trimmingTrailingWhitespace() -> Substring {
        var result = self
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}
