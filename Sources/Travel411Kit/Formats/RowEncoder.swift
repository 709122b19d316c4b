import Foundation

/// One input value, located in a chunk's bytes.
struct InputCell {
    enum Kind: UInt8 {
        /// The row has no such column (a short CSV row, a JSON object without that key).
        case missing
        /// An unquoted CSV/TSV field: the bytes are the value.
        case delimitedPlain
        /// A quoted CSV/TSV field, quotes included.
        case delimitedQuoted
        /// Raw JSON value text.
        case json
    }

    var start: Int
    var end: Int
    var kind: Kind

    static let missing = InputCell(start: 0, end: 0, kind: .missing)

    init(start: Int, end: Int, kind: Kind) {
        self.start = start
        self.end = end
        self.kind = kind
    }
}

/// The input side of one output row.
enum RowInput {
    /// Values by column (CSV/TSV input). `rawRecord` is the record's text when it may be copied
    /// verbatim into same-delimiter output (field count matches the header).
    case columns([InputCell], rawRecord: Range<Int>?)
    /// The members of a JSON object, in their order.
    case members([JSONMember])
    /// Text that could not be parsed into values; JSON outputs keep it under "input".
    case unparsed(Range<Int>)
}

/// A row's valid coordinate, with the source text of each number for writing it back unchanged.
struct RowPoint {
    var latitude: Double
    var longitude: Double
    var latitudeText: InputCell
    var longitudeText: InputCell
}

enum RowOutcome {
    case placemark(Placemark)
    case failure(String)
}

/// Writes output rows in the layout's format. One per worker thread: it owns scratch space.
final class RowEncoder {
    let layout: OutputLayout
    private let table: DelimitedTextWriter
    /// The input's delimiter when records may be copied verbatim into the output.
    private let verbatimDelimiter: UInt8?
    private let scratch = ByteBuffer(capacity: 4096)
    private var columnSlots: [InputCell]

    init(layout: OutputLayout, inputDelimiter: UInt8?) {
        self.layout = layout
        let outputDelimiter = layout.format == .tsv ? UInt8(ascii: "\t") : UInt8(ascii: ",")
        table = DelimitedTextWriter(delimiter: outputDelimiter)
        verbatimDelimiter = inputDelimiter == outputDelimiter ? inputDelimiter : nil
        columnSlots = Array(repeating: .missing, count: layout.inputColumnNames.count)
    }

    /// Appends one row. `rawGeometry` is a GeoJSON input's geometry text; `featureMembers` are its
    /// other feature members (like "id"), kept in GeoJSON output.
    func appendRow(
        _ bytes: UnsafePointer<UInt8>, input: RowInput, point: RowPoint?, rawGeometry: Range<Int>? = nil,
        featureMembers: [JSONMember] = [], outcome: RowOutcome, to output: ByteBuffer
    ) {
        switch layout.format {
        case .csv, .tsv:
            appendTableRow(bytes, input: input, point: point, outcome: outcome, to: output)
        case .jsonl:
            output.append(UInt8(ascii: "{"))
            appendObjectMembers(bytes, input: input, point: point, outcome: outcome, to: output)
            output.append("}\n")
        case .geojson:
            output.append(",\n{\"type\":\"Feature\",")
            for member in featureMembers {
                output.append(bytes + member.keyStart, count: member.keyEnd &- member.keyStart)
                output.append(UInt8(ascii: ":"))
                output.append(bytes + member.valueStart, count: member.valueEnd &- member.valueStart)
                output.append(UInt8(ascii: ","))
            }
            output.append("\"geometry\":")
            if let rawGeometry {
                output.append(bytes + rawGeometry.lowerBound, count: rawGeometry.count)
            } else if let point {
                output.append("{\"type\":\"Point\",\"coordinates\":[")
                appendNumber(point.longitude, text: point.longitudeText, bytes, to: output)
                output.append(UInt8(ascii: ","))
                appendNumber(point.latitude, text: point.latitudeText, bytes, to: output)
                output.append("]}")
            } else {
                output.append("null")
            }
            output.append(",\"properties\":{")
            appendObjectMembers(bytes, input: input, point: point, outcome: outcome, to: output)
            output.append("}}")
        }
    }

    // MARK: CSV and TSV

    private func appendTableRow(_ bytes: UnsafePointer<UInt8>, input: RowInput, point: RowPoint?, outcome: RowOutcome, to output: ByteBuffer) {
        let delimiter = table.delimiter
        let columnCount = layout.inputColumnNames.count
        var needsDelimiter = false
        switch input {
        case .columns(let cells, let rawRecord):
            if let rawRecord, verbatimDelimiter != nil, cells.count == columnCount, columnCount > 0 {
                output.append(bytes + rawRecord.lowerBound, count: rawRecord.count)
                needsDelimiter = true
            } else {
                for column in 0..<columnCount {
                    if needsDelimiter { output.append(delimiter) }
                    needsDelimiter = true
                    if column < cells.count { appendTableCell(cells[column], bytes, to: output) }
                }
            }
        case .members(let members):
            mapMembersToColumns(members, bytes)
            for column in 0..<columnCount {
                if needsDelimiter { output.append(delimiter) }
                needsDelimiter = true
                appendTableCell(columnSlots[column], bytes, to: output)
            }
        case .unparsed:
            for _ in 0..<columnCount {
                if needsDelimiter { output.append(delimiter) }
                needsDelimiter = true
            }
        }
        if layout.addsGeometryColumns {
            if needsDelimiter { output.append(delimiter) }
            if let point { appendTableCell(point.latitudeText, bytes, to: output) }
            output.append(delimiter)
            if let point { appendTableCell(point.longitudeText, bytes, to: output) }
            needsDelimiter = true
        }
        switch outcome {
        case .placemark(let placemark):
            for field in layout.fields {
                if needsDelimiter { output.append(delimiter) }
                needsDelimiter = true
                _ = withText(of: field, in: placemark) { text in
                    guard let start = text.baseAddress else { return }
                    table.appendField(start, count: text.count, to: output)
                }
            }
            if needsDelimiter { output.append(delimiter) }
        case .failure(let message):
            for _ in layout.fields {
                if needsDelimiter { output.append(delimiter) }
                needsDelimiter = true
            }
            if needsDelimiter { output.append(delimiter) }
            table.appendField(message, to: output)
        }
        output.append(UInt8(ascii: "\n"))
    }

    private func appendTableCell(_ cell: InputCell, _ bytes: UnsafePointer<UInt8>, to output: ByteBuffer) {
        switch cell.kind {
        case .missing:
            return
        case .delimitedPlain:
            table.appendField(bytes + cell.start, count: cell.end &- cell.start, to: output)
        case .delimitedQuoted:
            scratch.removeAll()
            DelimitedRecordSplitter.decodeQuoted(bytes, from: cell.start, to: cell.end, into: scratch)
            table.appendField(scratch.base, count: scratch.count, to: output)
        case .json:
            let first = bytes[cell.start]
            if first == UInt8(ascii: "\"") {
                scratch.removeAll()
                JSONScanner.decodeString(bytes, from: cell.start, to: cell.end, into: scratch)
                table.appendField(scratch.base, count: scratch.count, to: output)
            } else if first != UInt8(ascii: "n") {  // null stays empty; numbers, booleans, objects as text
                table.appendField(bytes + cell.start, count: cell.end &- cell.start, to: output)
            }
        }
    }

    /// Puts each member's value into the slot of the column with its key (JSON input, table output).
    private func mapMembersToColumns(_ members: [JSONMember], _ bytes: UnsafePointer<UInt8>) {
        let keys = layout.quotedSourceKeys
        for column in columnSlots.indices { columnSlots[column] = .missing }
        for (position, member) in members.enumerated() {
            let length = member.keyEnd &- member.keyStart
            // Objects usually repeat the first object's key order: try the same position first.
            var column = -1
            if position < keys.count, Self.equal(keys[position], bytes + member.keyStart, length) {
                column = position
            } else {
                for candidate in keys.indices where Self.equal(keys[candidate], bytes + member.keyStart, length) {
                    column = candidate
                    break
                }
            }
            if column >= 0 {
                columnSlots[column] = InputCell(start: member.valueStart, end: member.valueEnd, kind: .json)
            }
        }
    }

    @inline(__always)
    private static func equal(_ key: [UInt8], _ bytes: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        key.count == length && key.withUnsafeBufferPointer { $0.baseAddress.map { memcmp($0, bytes, length) == 0 } ?? (length == 0) }
    }

    // MARK: JSON Lines and GeoJSON properties

    private func appendObjectMembers(_ bytes: UnsafePointer<UInt8>, input: RowInput, point: RowPoint?, outcome: RowOutcome, to output: ByteBuffer) {
        var needsComma = false
        switch input {
        case .columns(let cells, _):
            for (column, key) in layout.quotedInputColumnKeys.enumerated() {
                if needsComma { output.append(UInt8(ascii: ",")) }
                needsComma = true
                output.append(key)
                output.append(UInt8(ascii: ":"))
                appendJSONValue(column < cells.count ? cells[column] : .missing, bytes, to: output)
            }
        case .members(let members):
            for member in members {
                if needsComma { output.append(UInt8(ascii: ",")) }
                needsComma = true
                let length = member.keyEnd &- member.keyStart
                if isReservedKey(bytes + member.keyStart, length) {
                    output.append("\"input_")
                    output.append(bytes + (member.keyStart &+ 1), count: length &- 1)
                } else {
                    output.append(bytes + member.keyStart, count: length)
                }
                output.append(UInt8(ascii: ":"))
                output.append(bytes + member.valueStart, count: member.valueEnd &- member.valueStart)
            }
        case .unparsed(let range):
            output.append("\"input\":")
            JSONTextWriter.appendString(bytes + range.lowerBound, count: range.count, to: output)
            needsComma = true
        }
        if layout.addsGeometryColumns {
            if needsComma { output.append(UInt8(ascii: ",")) }
            output.append("\"latitude\":")
            if let point { appendNumber(point.latitude, text: point.latitudeText, bytes, to: output) } else { output.append("null") }
            output.append(",\"longitude\":")
            if let point { appendNumber(point.longitude, text: point.longitudeText, bytes, to: output) } else { output.append("null") }
            needsComma = true
        }
        let keys = layout.quotedFieldKeys
        switch outcome {
        case .placemark(let placemark):
            for (position, field) in layout.fields.enumerated() {
                if needsComma { output.append(UInt8(ascii: ",")) }
                needsComma = true
                output.append(keys[position])
                output.append(UInt8(ascii: ":"))
                let isPresent = withText(of: field, in: placemark) { text in
                    guard let start = text.baseAddress else { return output.append("\"\"") }
                    if field.isNumeric {
                        output.append(start, count: text.count)
                    } else {
                        JSONTextWriter.appendString(start, count: text.count, to: output)
                    }
                }
                if !isPresent { output.append("null") }
            }
            if needsComma { output.append(UInt8(ascii: ",")) }
            output.append("\"error\":null")
        case .failure(let message):
            for key in keys {
                if needsComma { output.append(UInt8(ascii: ",")) }
                needsComma = true
                output.append(key)
                output.append(":null")
            }
            if needsComma { output.append(UInt8(ascii: ",")) }
            output.append("\"error\":")
            JSONTextWriter.appendString(message, to: output)
        }
    }

    private func appendJSONValue(_ cell: InputCell, _ bytes: UnsafePointer<UInt8>, to output: ByteBuffer) {
        switch cell.kind {
        case .missing:
            output.append("null")
        case .delimitedPlain:
            JSONTextWriter.appendString(bytes + cell.start, count: cell.end &- cell.start, to: output)
        case .delimitedQuoted:
            scratch.removeAll()
            DelimitedRecordSplitter.decodeQuoted(bytes, from: cell.start, to: cell.end, into: scratch)
            JSONTextWriter.appendString(scratch.base, count: scratch.count, to: output)
        case .json:
            output.append(bytes + cell.start, count: cell.end &- cell.start)
        }
    }

    private func isReservedKey(_ key: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        for reserved in layout.quotedReservedKeys where Self.equal(reserved, key, length) { return true }
        return false
    }

    /// A coordinate as a JSON number: the source text when it already is one, else Swift's
    /// shortest round-tripping form.
    private func appendNumber(_ value: Double, text: InputCell, _ bytes: UnsafePointer<UInt8>, to output: ByteBuffer) {
        var start = text.start
        var end = text.end
        if text.kind == .delimitedPlain {
            while start < end, DecimalParser.isBlank(bytes[start]) { start &+= 1 }
            while end > start, DecimalParser.isBlank(bytes[end &- 1]) { end &-= 1 }
        }
        if text.kind == .json || text.kind == .delimitedPlain, JSONScanner.isNumber(bytes, from: start, to: end) {
            output.append(bytes + start, count: end &- start)
        } else {
            output.append(value.description)
        }
    }

    // MARK: Placemark field text

    /// Calls `body` with the field's text and returns true, or returns false when it is absent.
    /// Stored strings are lent without copying; computed ones are built in the scratch buffer.
    @inline(__always)
    private func withText(of field: PlacemarkField, in placemark: Placemark, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        switch field {
        case .name: return Self.lend(placemark.name, body)
        case .thoroughfare: return Self.lend(placemark.thoroughfare, body)
        case .subThoroughfare: return Self.lend(placemark.subThoroughfare, body)
        case .locality: return Self.lend(placemark.locality, body)
        case .subLocality: return Self.lend(placemark.subLocality, body)
        case .administrativeArea: return Self.lend(placemark.administrativeArea, body)
        case .subAdministrativeArea: return Self.lend(placemark.subAdministrativeArea, body)
        case .postalCode: return Self.lend(placemark.postalCode, body)
        case .country: return Self.lend(placemark.country, body)
        case .isoCountryCode: return Self.lend(placemark.isoCountryCode, body)
        case .timeZone: return Self.lend(placemark.timeZone, body)
        case .inlandWater: return Self.lend(placemark.inlandWater, body)
        case .ocean: return Self.lend(placemark.ocean, body)
        case .nearestLocality: return Self.lend(placemark.nearestLocality?.name, body)
        case .distance, .bearing, .description:
            guard let nearby = placemark.nearestLocality else { return false }
            scratch.removeAll()
            guard PlacemarkText.append(field, of: nearby, to: scratch) else { return false }
            body(scratch.bytes)
            return true
        }
    }

    @inline(__always)
    private static func lend(_ text: String?, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard var text else { return false }
        text.withUTF8(body)
        return true
    }
}

/// The computed placemark fields written straight into bytes. The text equals
/// `PlacemarkField.text(in:)` (tests compare them) without building a String per row.
enum PlacemarkText {
    private static let compassPoints: [StaticString] = [
        "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
    ]

    /// Writes `.distance`, `.bearing` or `.description`; false when the numbers are not finite.
    static func append(_ field: PlacemarkField, of nearby: NearbyPlace, to output: ByteBuffer) -> Bool {
        let metres = nearby.distanceMetres
        guard metres.isFinite, abs(metres) < 1e15, nearby.bearingDegrees.isFinite else { return false }
        switch field {
        case .distance:
            output.appendDecimal(Int(metres.rounded()))
        case .bearing:
            output.append(compassPoint(nearby.bearingDegrees))
        case .description:
            if metres < 100 {
                output.append("in ")
                output.append(nearby.name)
                return true
            }
            if metres < 1000 {
                output.appendDecimal(Int(metres.rounded()))
                output.append(" m ")
            } else if metres / 1000 < 100 {
                // (km * 10).rounded() / 10 prints as "<tenths / 10>.<tenths % 10>".
                let tenths = Int((metres / 1000 * 10).rounded())
                output.appendDecimal(tenths / 10)
                output.append(UInt8(ascii: "."))
                output.appendDecimal(tenths % 10)
                output.append(" km ")
            } else {
                output.appendDecimal(Int((metres / 1000).rounded()))
                output.append(" km ")
            }
            output.append(compassPoint(nearby.bearingDegrees))
            output.append(" of ")
            output.append(nearby.name)
        default:
            return false
        }
        return true
    }

    /// The same rounding as `CompassPoint(bearing:)`, without its per-call `allCases` array.
    static func compassPoint(_ bearing: Double) -> StaticString {
        let normalized = (bearing.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return compassPoints[Int((normalized / 22.5).rounded()) % 16]
    }
}
