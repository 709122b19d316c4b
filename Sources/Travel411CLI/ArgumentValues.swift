import ArgumentParser
import Travel411Answers
import Travel411Batch
import Travel411Import
import Travel411Store

// The library's enums are the option values: --help lists their cases, and a wrong value gets
// swift-argument-parser's standard message ("The value 'x' is invalid for '--format <format>'").
// The conformances live here because Travel411Kit does not depend on ArgumentParser.

extension BatchFormat: ExpressibleByArgument {
    /// `json` and `ndjson` are read as JSON Lines, the only JSON a stream of rows can be.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "json", "ndjson": self = .jsonl
        case let name: self.init(rawValue: name)
        }
    }
}

extension CSVDelimiter: ExpressibleByArgument {
    public init?(argument: String) { try? self.init(parsing: argument) }

    /// Names rather than characters: `;` and `|` would need quoting in a shell.
    public static var allValueStrings: [String] { allCases.map(\.name) }
}

extension FeatureLayers: ExpressibleByArgument {}

extension PlaceLevel: ExpressibleByArgument {
    /// Only the levels a user may map a layout to; the others are decided by the importer.
    public init?(argument: String) {
        guard let level = PlaceLevel(rawValue: argument), PlaceLevel.userMappable.contains(level) else { return nil }
        self = level
    }

    public static var allValueStrings: [String] { userMappable.map(\.rawValue) }
}
