import Foundation
import Travel411Batch
import Travel411Core
import Travel411Store

/// Which CSV column or JSON key holds each part of a fix, found by name in any letter case. Latitude
/// and longitude use the names `where` recognises (`CoordinateColumns`); the rest are the names GPS
/// loggers and exports use.
struct TrackColumns {
    var latitude: Int
    var longitude: Int
    var time: Int
    var accuracy: Int?
    var hdop: Int?
    var elevation: Int?
    var speed: Int?
    var course: Int?

    static let timeNames = [
        "time", "timestamp", "datetime", "date_time", "utc", "time_utc", "gps_time", "recorded_at",
        "fix_time", "ts", "date",
    ]
    static let accuracyNames = [
        "accuracy", "horizontal_accuracy", "horizontalaccuracy", "hacc", "h_acc", "acc",
        "accuracy_m", "horizontal_accuracy_m",
    ]
    static let hdopNames = ["hdop"]
    static let elevationNames = ["ele", "elevation", "alt", "altitude", "altitude_m", "elevation_m"]
    static let speedNames = ["speed", "speed_mps", "speed_m_s", "velocity"]
    static let courseNames = ["course", "bearing", "heading", "direction", "track"]

    /// The columns among `names`, or a message saying what is missing.
    static func locate(in names: [String]) -> Result<TrackColumns, TrackingError> {
        let lowered = names.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let coordinates = CoordinateColumns(latitudeName: nil, longitudeName: nil).locate(in: names)
        func first(_ candidates: [String]) -> Int? {
            for candidate in candidates { if let index = lowered.firstIndex(of: candidate) { return index } }
            return nil
        }
        let shownNames = DisplayText.sanitized(names.joined(separator: ", "), limit: 120)
        guard let latitude = coordinates.latitude, let longitude = coordinates.longitude else {
            return .failure(.noCoordinateColumns(found: shownNames))
        }
        guard let time = first(timeNames) else { return .failure(.noTimeColumn(found: shownNames)) }
        return .success(
            TrackColumns(
                latitude: latitude, longitude: longitude, time: time, accuracy: first(accuracyNames),
                hdop: first(hdopNames), elevation: first(elevationNames), speed: first(speedNames),
                course: first(courseNames)))
    }

    /// A fix from one record's values (nil where a column is absent), or why there is none.
    func fix(from value: (Int) -> String?, line: Int, decimalComma: Bool) -> TrackItem {
        func number(_ index: Int?) -> Double? {
            guard let index, var text = value(index)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            if decimalComma, text.filter({ $0 == "," }).count == 1 { text = text.replacingOccurrences(of: ",", with: ".") }
            return Double(text).flatMap { $0.isFinite ? $0 : nil }
        }
        func problem(_ kind: ReadProblem, _ detail: String) -> TrackItem {
            .skipped(SkippedInput(line: line, problem: kind, detail: detail))
        }
        let latitudeText = value(latitude) ?? "", longitudeText = value(longitude) ?? ""
        guard let lat = number(latitude) else {
            return problem(
                .malformed,
                latitudeText.isEmpty
                    ? "latitude is missing" : "latitude '\(DisplayText.sanitized(latitudeText, limit: 40))' is not a number")
        }
        guard let lon = number(longitude) else {
            return problem(
                .malformed,
                longitudeText.isEmpty
                    ? "longitude is missing" : "longitude '\(DisplayText.sanitized(longitudeText, limit: 40))' is not a number")
        }
        guard let coordinate = try? Coordinate(validatingLatitude: lat, longitude: lon) else {
            return problem(.malformed, "\(lat), \(lon) is outside [-90, 90] × [-180, 180]")
        }
        let timeText = value(time)?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !timeText.isEmpty else { return problem(.missingTime, "the time is empty") }
        guard let date = TrackTime.parse(timeText) else {
            return problem(.malformed, "time '\(DisplayText.sanitized(timeText, limit: 40))' is not an ISO 8601 time or a Unix time")
        }
        return .fix(
            Fix(
                time: date, coordinate: coordinate, horizontalAccuracy: number(accuracy), hdop: number(hdop),
                elevation: number(elevation), speed: number(speed), course: number(course), line: line))
    }
}

/// CSV (comma, semicolon or tab, decided from the header) to fixes, one line at a time. A quoted field
/// may hold the delimiter but not a line break: a track log is read line by line so a live stream is
/// answered as each row arrives.
public struct CSVFixDecoder {
    private var columns: TrackColumns?
    private var delimiter: UInt8 = UInt8(ascii: ",")

    public init() {}

    /// Throws when the header names no coordinates or no time: nothing after it could be read.
    public mutating func decode(line bytes: ArraySlice<UInt8>, number: Int) throws -> [TrackItem] {
        var line = bytes
        while let last = line.last, last == 13 || last == 10 { line.removeLast() }
        if number == 1 || columns == nil, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        guard !line.allSatisfy({ $0 == 32 || $0 == 9 }) else { return [] }
        guard let columns else {
            delimiter = Self.delimiter(ofHeader: line)
            switch TrackColumns.locate(in: Self.fields(line, delimiter: delimiter)) {
            case .success(let found): columns = found
            case .failure(let error): throw error
            }
            return []
        }
        let fields = Self.fields(line, delimiter: delimiter)
        return [
            columns.fix(
                from: { $0 < fields.count ? fields[$0] : nil }, line: number,
                decimalComma: delimiter != UInt8(ascii: ","))
        ]
    }

    static func delimiter(ofHeader line: ArraySlice<UInt8>) -> UInt8 {
        var counts: [UInt8: Int] = [:]
        var quoted = false
        for byte in line {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if !quoted, byte == 44 || byte == 59 || byte == 9 { counts[byte, default: 0] += 1 }
        }
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? 44
    }

    /// RFC 4180 fields of one line: `""` inside quotes is a quote.
    static func fields(_ line: ArraySlice<UInt8>, delimiter: UInt8) -> [String] {
        var fields: [String] = []
        var current: [UInt8] = []
        var quoted = false
        var index = line.startIndex
        while index < line.endIndex {
            let byte = line[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    let next = line.index(after: index)
                    if next < line.endIndex, line[next] == UInt8(ascii: "\"") {
                        current.append(byte)
                        index = next
                    } else {
                        quoted = false
                    }
                } else {
                    current.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") && current.isEmpty {
                quoted = true
            } else if byte == delimiter {
                fields.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
            index = line.index(after: index)
        }
        fields.append(String(decoding: current, as: UTF8.self))
        return fields
    }
}

/// JSON Lines to fixes: one object per line, with the keys found by name as CSV columns are, and the
/// columns chosen again for each object (objects in one file need not share their keys).
public struct JSONLinesFixDecoder {
    public init() {}

    public func decode(line bytes: ArraySlice<UInt8>, number: Int) -> [TrackItem] {
        var line = bytes
        if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        guard !line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) else { return [] }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] else {
            return [
                .skipped(
                    SkippedInput(
                        line: number, problem: .malformed,
                        detail: "not a JSON object: '\(NMEADecoder.shown(line))'"))
            ]
        }
        let keys = Array(object.keys)
        switch TrackColumns.locate(in: keys) {
        case .failure(let error):
            return [.skipped(SkippedInput(line: number, problem: .malformed, detail: error.description))]
        case .success(let columns):
            return [
                columns.fix(
                    from: { index in
                        switch object[keys[index]] {
                        case let text as String: return text
                        case let number as NSNumber: return number.stringValue
                        default: return nil
                        }
                    }, line: number, decimalComma: false)
            ]
        }
    }
}
