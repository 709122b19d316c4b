/// Decides the input format: the explicit option, else the file extension, else the content.
enum InputFormatDetector {
    static func format(explicit: BatchInputFormat?, inputName: String, sample: UnsafeBufferPointer<UInt8>) throws -> BatchInputFormat {
        if let explicit { return explicit }
        if let byExtension = BatchInputFormat(fileExtensionOf: inputName) { return byExtension }
        return try sniff(sample)
    }

    /// `{` starts JSON: GeoJSON if a FeatureCollection is named early on, else JSON Lines.
    /// Anything else is delimited text: TSV if the first line has more tabs than commas.
    static func sniff(_ sample: UnsafeBufferPointer<UInt8>) throws -> BatchInputFormat {
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
