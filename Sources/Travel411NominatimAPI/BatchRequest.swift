import Foundation
import Travel411Batch
import Travel411Core
import Travel411Store

/// `POST /reverse`: many points in one request body, geocoded by the batch pipeline that
/// `where --input` uses, with the same one-row-per-row and error-column rules.
public struct BatchRequest: Sendable {
    public var options: BatchOptions

    /// The media types a body may be declared as. A body declared as none of these, nor as anything
    /// vague (form data, plain text, octet-stream, none), is refused with 415.
    static func declaredFormat(contentType: String?) throws -> BatchFormat? {
        guard let contentType else { return nil }
        let mediaType = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch mediaType {
        case "text/csv", "application/csv": return .csv
        case "text/tab-separated-values": return .tsv
        case "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines", "application/jsonlines":
            return .jsonl
        case "application/geo+json": return .geojson
        // curl --data sends form-urlencoded; JSON may be either JSON layout: look at the content.
        case "", "text/plain", "application/octet-stream", "application/x-www-form-urlencoded", "application/json": return nil
        default:
            throw ServerRequestError(
                status: 415,
                "Content-Type '\(DisplayText.sanitized(mediaType, limit: 60))' is not a known body format; send CSV (text/csv), TSV (text/tab-separated-values), JSON Lines (application/x-ndjson) or GeoJSON (application/geo+json)"
            )
        }
    }

    /// Refuses (415) a body declared in a format no batch reads, before the body is read at all.
    public static func declaredFormatCheck(contentType: String?) throws -> BatchFormat? {
        try declaredFormat(contentType: contentType)
    }

    /// `contentType` declares the body's format (else its content decides, as for standard input);
    /// the parameters `format` (csv|tsv|jsonl|geojson; default: the body's format), `fields`,
    /// `lat_column` and `lon_column` work as `where`'s options of the same names.
    public init(contentType: String?, parameters: [(name: String, value: String)], body: [UInt8], jobs: Int) throws {
        var values: [String: String] = [:]
        for (name, value) in parameters where values[name] == nil { values[name] = value }
        guard body.contains(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            throw ServerRequestError("The request body is empty; send points as CSV, TSV, JSON Lines or GeoJSON")
        }
        let inputFormat: BatchFormat
        do {
            if let declared = try Self.declaredFormat(contentType: contentType) {
                inputFormat = declared
            } else {
                let sample =
                    body.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(body.dropFirst(3).prefix(64 << 10)) : Array(body.prefix(64 << 10))
                inputFormat = try sample.withUnsafeBufferPointer { try InputFormatDetector.sniff($0) }
            }
        } catch let error as BatchError {
            throw ServerRequestError("The request body: \(error.message)")
        }
        var options = BatchOptions(inputFormat: inputFormat, showProgress: false, printsSummary: false)
        let outputName = values["format"].map { $0.lowercased() == "json" ? "jsonl" : $0.lowercased() } ?? inputFormat.rawValue
        guard let output = BatchFormat(rawValue: outputName) else {
            throw ServerRequestError(
                "Parameter 'format' for POST must be one of: \(BatchFormat.allCases.map(\.rawValue).joined(separator: ", ")); got '\(DisplayText.sanitized(outputName, limit: 40))'"
            )
        }
        options.outputFormat = output
        if let fields = values["fields"] {
            do { options.fields = try BatchOptions.fields(parsing: fields) } catch {
                throw ServerRequestError("Parameter 'fields': \(error.localizedDescription)")
            }
        }
        options.latColumn = values["lat_column"]
        options.lonColumn = values["lon_column"]
        options.jobs = max(1, jobs)
        self.options = options
    }

    /// A batch error as the HTTP client should read it: the CLI's option names become the
    /// request parameters that do the same.
    public static func describe(_ error: any Error) -> String {
        let message = (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
        return message.replacingOccurrences(of: "--lat-column", with: "the lat_column parameter")
            .replacingOccurrences(of: "--lon-column", with: "lon_column")
    }

    public var contentType: String {
        switch options.outputFormat {
        case .csv: return "text/csv; charset=utf-8"
        case .tsv: return "text/tab-separated-values; charset=utf-8"
        case .jsonl: return "application/x-ndjson; charset=utf-8"
        case .geojson: return "application/geo+json; charset=utf-8"
        }
    }
}
