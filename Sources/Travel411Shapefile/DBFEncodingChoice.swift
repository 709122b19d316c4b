/// Decides how DBF text is decoded: the .cpg file first, then the DBF language driver id, then UTF-8 with a
/// Latin-1 reading for values that are not UTF-8 (what most unlabelled files turn out to hold).
struct DBFEncodingChoice {
    let decoder: DBFTextDecoder
    /// How the text is decoded and why, e.g. "UTF-8 (.cpg)" or "windows-1252 (DBF code page 0x57)".
    let description: String
    let warnings: [String]

    init(codePageFile: String?, languageDriver: UInt8, dbfPath: String) {
        var warnings: [String] = []
        (decoder, description) = Self.choose(
            codePageFile: codePageFile, languageDriver: languageDriver,
            dbfPath: dbfPath, warnings: &warnings)
        self.warnings = warnings
    }

    private static func choose(
        codePageFile: String?, languageDriver: UInt8, dbfPath: String,
        warnings: inout [String]
    ) -> (DBFTextDecoder, String) {
        let driverHex = "0x" + String(languageDriver, radix: 16, uppercase: true).leftPadded(to: 2)
        let fromDriver = DBFTextEncoding.fromLanguageDriver(languageDriver)

        if let codePageFile {
            let text = readSmallTextFile(codePageFile)
            if let encoding = DBFTextEncoding.fromCodePageFile(text) {
                if let decoder = DBFTextDecoder(encoding: encoding) {
                    if let fromDriver, fromDriver != encoding {
                        warnings.append(
                            "\(codePageFile) says \(encoding.name) but \(dbfPath) has code page \(driverHex) (\(fromDriver.name)); using \(encoding.name) from the .cpg"
                        )
                    }
                    return (decoder, "\(encoding.name) (.cpg)")
                }
                warnings.append("\(codePageFile) names \(encoding.name), which this system cannot decode; ignoring it")
            } else {
                warnings.append("\(codePageFile) does not name a code page (it starts with “\(Self.preview(text))”); ignoring it")
            }
        }

        if let fromDriver, let decoder = DBFTextDecoder(encoding: fromDriver) {
            return (decoder, "\(fromDriver.name) (DBF code page \(driverHex))")
        }
        if languageDriver != 0 {
            warnings.append("\(dbfPath) has code page \(driverHex), which is unknown or cannot be decoded here; reading its text as UTF-8")
        }
        return (.utf8, "UTF-8 (no code page given; values that are not UTF-8 read as Latin-1)")
    }

    private static func readSmallTextFile(_ path: String) -> String {
        guard let file = try? MappedFile(path: path) else { return "" }
        return String(decoding: file.octets.prefix(4096), as: UTF8.self)
    }

    private static func preview(_ text: String) -> String {
        let flattened = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flattened.count > 30 ? flattened.prefix(30) + "…" : flattened
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
