import Travel411Store

/// Decides the input format: the explicit option, else the file extension, else the content.
package enum InputFormatDetector {
    static func format(
        explicit: BatchFormat?, csvDelimiter: CSVDelimiter? = nil, inputName: String, sample: UnsafeBufferPointer<UInt8>
    ) throws -> BatchFormat {
        if let declared = try declaredFormat(explicit: explicit, csvDelimiter: csvDelimiter, inputName: inputName) { return declared }
        // A delimiter given for the input says it is CSV, whatever its first line looks like.
        if csvDelimiter != nil { return .csv }
        return try sniff(sample)
    }

    /// The format known without reading: the explicit option, else the extension. A CSV delimiter
    /// given for input declared as something else is a mistake to report, not to guess around.
    static func declaredFormat(explicit: BatchFormat?, csvDelimiter: CSVDelimiter?, inputName: String) throws -> BatchFormat? {
        let declared = explicit ?? BatchFormat(fileExtensionOf: inputName)
        guard csvDelimiter != nil, let declared, declared != .csv else { return declared }
        if explicit != nil { throw BatchError("--delimiter applies to CSV input, not to --input-format \(declared.rawValue)") }
        throw BatchError(
            "--delimiter applies to CSV input, and \(inputName) is \(declared.rawValue) by its extension; add --input-format csv to read it as CSV"
        )
    }

    /// `{` starts JSON: GeoJSON if a FeatureCollection is named early on, else JSON Lines.
    /// Anything else is delimited text: TSV if the first line has more tabs than commas.
    package static func sniff(_ sample: UnsafeBufferPointer<UInt8>) throws -> BatchFormat {
        guard let bytes = sample.baseAddress else { return .csv }
        let start = JSONScanner.skipWhitespace(bytes, 0, sample.count)
        guard start < sample.count else { return .csv }
        switch bytes[start] {
        case UInt8(ascii: "{"):
            return contains(Array("\"FeatureCollection\"".utf8), in: sample) ? .geojson : .jsonl
        case UInt8(ascii: "["):
            throw BatchError("a JSON array is not a supported input; give JSON Lines (one object per line) or a GeoJSON FeatureCollection")
        default:
            var tabs = 0
            var commas = 0
            for byte in sample[start...] {
                if byte == UInt8(ascii: "\n") { break }
                if byte == UInt8(ascii: "\t") { tabs += 1 }
                if byte == UInt8(ascii: ",") { commas += 1 }
            }
            return tabs > commas ? .tsv : .csv
        }
    }

    private static func contains(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard haystack.count >= needle.count, let first = needle.first else { return false }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first && haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
