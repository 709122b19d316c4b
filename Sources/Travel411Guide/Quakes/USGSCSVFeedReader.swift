import Foundation
import Travel411Batch
import Travel411Core

/// Reads USGS's CSV "spreadsheet" format (time,latitude,longitude,depth,mag,magType,…,place,…),
/// finding columns by their header names so that reordered or trimmed exports still read.
/// Records are split by the project's RFC 4180 splitter: `place` is quoted and holds commas.
enum USGSCSVFeedReader {
    /// The columns without which a row is no event.
    static let requiredColumns = ["time", "latitude", "longitude"]

    static func read(_ data: Data, source: String) throws -> QuakeFeed {
        var quakes: [Quake] = []
        var skipped: [SkippedQuakeRecord] = []
        var records = 0
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw QuakeFeedError.empty(source: source) }
            let end = raw.count
            var index = 0
            let splitter = DelimitedRecordSplitter(delimiter: UInt8(ascii: ","))
            var fields: [InputCell] = []
            var line = 1
            var header: Header?
            while index < end {
                let record = splitter.split(base, from: index, to: end, into: &fields)
                let recordLine = line
                line += record.lines
                index = record.next
                if DelimitedRecordSplitter.isBlank(fields) { continue }
                guard let columns = header else {
                    header = try Header(
                        names: fields.map { DelimitedRecordSplitter.text(of: $0, in: base) }, line: recordLine, source: source)
                    continue
                }
                records += 1
                if record.isUnterminated {
                    skipped.append(SkippedQuakeRecord(location: "line \(recordLine)", reason: "a quoted field has no closing quote"))
                    break
                }
                do {
                    quakes.append(try columns.quake(from: FieldReader(bytes: base, fields: fields, positions: columns.positions)))
                } catch let problem as RecordProblem {
                    skipped.append(SkippedQuakeRecord(location: "line \(recordLine)", reason: problem.reason))
                }
            }
            if header == nil { throw QuakeFeedError.empty(source: source) }
        }
        return QuakeFeed(format: .csv, quakes: quakes, skipped: skipped, recordCount: records)
    }

    /// Where each known column is, from the header line.
    struct Header {
        let count: Int
        let positions: [String: Int]

        init(names: [String], line: Int, source: String) throws {
            count = names.count
            var positions: [String: Int] = [:]
            for (index, name) in names.enumerated() {
                let key = name.trimmingCharacters(in: .whitespaces).lowercased()
                if positions[key] == nil { positions[key] = index }
            }
            self.positions = positions
            let missing = USGSCSVFeedReader.requiredColumns.filter { positions[$0] == nil }
            guard missing.isEmpty else {
                let shown = DisplayText.sanitized(names.joined(separator: ","), limit: 120)
                throw QuakeFeedError.notAFeed(
                    source: source,
                    reason:
                        "the header (line \(line)) has no \(missing.map { "'\($0)'" }.joined(separator: ", ")) column\(missing.count == 1 ? "" : "s"); it reads '\(shown)'"
                )
            }
        }

        func quake(from row: FieldReader) throws -> Quake {
            guard row.fields.count == count else {
                throw RecordProblem(reason: "\(row.fields.count) field\(row.fields.count == 1 ? "" : "s") where the header has \(count)")
            }
            let time = try row.time("time")
            let latitude = try row.number("latitude"), longitude = try row.number("longitude")
            guard let latitude, let longitude else {
                throw RecordProblem(reason: latitude == nil ? "latitude is empty" : "longitude is empty")
            }
            guard let time else { throw RecordProblem(reason: "time is empty") }
            var quake = Quake(time: time, coordinate: try QuakeFieldCheck.coordinate(latitude: latitude, longitude: longitude))
            quake.depthKilometres = try row.number("depth")
            quake.magnitude = try row.number("mag")
            quake.magnitudeType = row.text("magtype")
            quake.place = row.text("place")
            quake.eventType = row.text("type")
            quake.id = row.text("id")
            quake.updated = try row.time("updated")
            quake.status = row.text("status")
            quake.network = row.text("net")
            quake.stationCount = try row.number("nst").map { try QuakeFieldCheck.count($0, field: "nst") }
            quake.azimuthalGap = try row.number("gap")
            quake.nearestStationDegrees = try row.number("dmin")
            quake.rms = try row.number("rms")
            return quake
        }
    }

    /// The values of one row by column name, made into Strings only when asked for (a feed has 22
    /// columns and we read 14); empty fields are absent values.
    struct FieldReader {
        let bytes: UnsafePointer<UInt8>
        let fields: [InputCell]
        let positions: [String: Int]

        func text(_ column: String) -> String? {
            guard let position = positions[column], position < fields.count else { return nil }
            var field = fields[position]
            if field.kind == .delimitedQuoted {
                return QuakeFieldCheck.nonBlank(DelimitedRecordSplitter.text(of: field, in: bytes))
            }
            // Spaces and tabs around an unquoted value are not part of it; trimmed on the bytes,
            // which is many times cheaper than Foundation's trimming of a String.
            while field.start < field.end, bytes[field.start] == 0x20 || bytes[field.start] == 0x09 { field.start += 1 }
            while field.end > field.start, bytes[field.end - 1] == 0x20 || bytes[field.end - 1] == 0x09 { field.end -= 1 }
            guard field.end > field.start else { return nil }
            return String(decoding: UnsafeBufferPointer(start: bytes + field.start, count: field.end - field.start), as: UTF8.self)
        }

        func number(_ column: String) throws -> Double? {
            guard let text = text(column) else { return nil }
            return try QuakeFieldCheck.number(text, field: column == "magtype" ? "magType" : column)
        }

        func time(_ column: String) throws -> UTCTimestamp? {
            guard let text = text(column) else { return nil }
            guard let time = UTCTimestamp(iso8601: text) else {
                throw RecordProblem(reason: "\(column) '\(DisplayText.sanitized(text, limit: 60))' is not an ISO 8601 time")
            }
            return time
        }
    }
}

/// Why one record was skipped.
struct RecordProblem: Error {
    let reason: String
}

/// Checks shared by both feed formats, so the same bad value gets the same message.
enum QuakeFieldCheck {
    /// A finite number: `NaN` and `Infinity` parse as Doubles but describe no event.
    static func number(_ text: String, field: String) throws -> Double {
        guard let value = Double(text), value.isFinite else {
            throw RecordProblem(reason: "\(field) '\(DisplayText.sanitized(text, limit: 60))' is not a number")
        }
        return value
    }

    /// The text without surrounding spaces, or nil when nothing is left.
    static func nonBlank(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A whole, non-negative count such as `nst`; 1e30 or -3 stations are a broken record, not a crash.
    static func count(_ value: Double, field: String) throws -> Int {
        guard value >= 0, let count = Int(exactly: value.rounded()), count < 1_000_000 else {
            throw RecordProblem(reason: "\(field) \(JSONText.number(value)) is not a count")
        }
        return count
    }

    static func coordinate(latitude: Double, longitude: Double) throws -> Coordinate {
        do {
            return try Coordinate(validatingLatitude: latitude, longitude: longitude)
        } catch let error as CoordinateError {
            throw RecordProblem(reason: error.description)
        }
    }
}
