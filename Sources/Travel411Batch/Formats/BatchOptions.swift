import Foundation
import Travel411Core
import Travel411Geocoder

/// The layouts a batch reads and writes (`where --input`, `--input-format`, `--format`).
public enum BatchFormat: String, CaseIterable, Sendable {
    case csv, tsv, jsonl, geojson

    /// The format a file name's extension names, nil when the extension says nothing.
    public init?(fileExtensionOf name: String) {
        switch (name as NSString).pathExtension.lowercased() {
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        case "jsonl", "ndjson": self = .jsonl
        case "geojson": self = .geojson
        default: return nil  // ".json" may hold either JSON layout, so it is sniffed
        }
    }
}

/// How a batch run reads, geocodes and writes.
public struct BatchOptions: Sendable {
    /// Forces the input format; nil takes it from the file extension, else sniffs the content.
    public var inputFormat: BatchFormat?
    /// Forces a CSV input's delimiter; nil takes `;` when the header has more semicolons than commas, else `,`.
    public var csvDelimiter: CSVDelimiter?
    public var outputFormat: BatchFormat
    /// Writes the input's format, as detected (extension, else content), instead of `outputFormat`:
    /// the CLI's default, so TSV piped in (or in a `.txt` file) comes back as TSV.
    public var outputFormatFollowsInput = false
    /// When the run's clock starts, as `ProcessInfo.systemUptime`; nil: when the batch starts reading.
    /// The CLI gives its process's start, so the summary's rate is that of the whole run.
    public var startedAt: Double?
    /// Column (CSV/TSV) or key (JSON Lines) holding latitude; nil looks for common names.
    public var latColumn: String?
    public var lonColumn: String?
    /// The placemark fields appended to each row, in this order.
    public var fields: [PlacemarkField]
    /// Worker threads that geocode and format; at least 1.
    public var jobs: Int
    /// Shows a running count on stderr, and only when stderr is a terminal.
    public var showProgress: Bool
    /// Writes the one-line summary to stderr at the end.
    public var printsSummary: Bool

    public init(
        inputFormat: BatchFormat? = nil,
        csvDelimiter: CSVDelimiter? = nil,
        outputFormat: BatchFormat = .csv,
        latColumn: String? = nil,
        lonColumn: String? = nil,
        fields: [PlacemarkField] = PlacemarkField.standard,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        showProgress: Bool = true,
        printsSummary: Bool = true
    ) {
        self.inputFormat = inputFormat
        self.csvDelimiter = csvDelimiter
        self.outputFormat = outputFormat
        self.latColumn = latColumn
        self.lonColumn = lonColumn
        self.fields = fields
        self.jobs = jobs
        self.showProgress = showProgress
        self.printsSummary = printsSummary
    }

    /// Throws when `csvDelimiter` is set for input that `inputFormat` or the extension of
    /// `inputName` (a path, or "-" for standard input) declares as other than CSV.
    public func checkCSVDelimiterApplies(toInputNamed inputName: String) throws {
        _ = try InputFormatDetector.declaredFormat(explicit: inputFormat, csvDelimiter: csvDelimiter, inputName: inputName)
    }

    /// Parses a `--fields` value: comma-separated field names, matched case-insensitively.
    public static func fields(parsing list: String) throws -> [PlacemarkField] {
        var fields: [PlacemarkField] = []
        for rawName in list.split(separator: ",") {
            let name = rawName.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { continue }
            guard let field = PlacemarkField.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                let known = PlacemarkField.allCases.map(\.rawValue).joined(separator: ", ")
                throw BatchError("unknown field '\(name)'; choose from \(known)")
            }
            if !fields.contains(field) { fields.append(field) }
        }
        guard !fields.isEmpty else { throw BatchError("--fields names no field") }
        return fields
    }
}

/// What a batch run did. The CLI exits 65 (EX_DATAERR) when some rows carry errors.
public struct BatchSummary: Sendable, Equatable, CustomStringConvertible {
    public var rows: Int
    public var errors: Int
    public var seconds: Double
    public var rowsPerSecond: Double

    public init(rows: Int, errors: Int, seconds: Double) {
        self.rows = rows
        self.errors = errors
        self.seconds = seconds
        self.rowsPerSecond = seconds > 0 ? Double(rows) / seconds : 0
    }

    public var exitCode: Int32 { errors > 0 ? 65 : 0 }

    /// "1,000,000 rows, 12 errors, 0.93 s, 1,075,268 rows/s"
    public var description: String {
        let errorText = errors == 1 ? "1 error" : "\(Self.grouped(errors)) errors"
        let rowText = rows == 1 ? "1 row" : "\(Self.grouped(rows)) rows"
        let secondsText = String(format: "%.2f", seconds)
        return "\(rowText), \(errorText), \(secondsText) s, \(Self.grouped(Int(rowsPerSecond.rounded()))) rows/s"
    }

    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return value < 0 ? "-" + result : result
    }
}

/// A problem that stops a batch run as a whole (as opposed to one bad row, which is flagged in
/// the output and counted).
public struct BatchError: Error, Equatable, LocalizedError, CustomStringConvertible {
    public var message: String
    /// Bad data (65) unless the input could not be opened at all (66).
    public var exitStatus: ExitStatus
    public init(_ message: String, exitStatus: ExitStatus = .dataError) {
        self.message = message
        self.exitStatus = exitStatus
    }
    public var description: String { message }
    public var errorDescription: String? { message }
}

extension BatchError: Travel411Error {}
