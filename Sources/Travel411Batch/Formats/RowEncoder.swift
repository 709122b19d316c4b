import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Store

/// One input value, located in a chunk's bytes.
package struct InputCell {
    package enum Kind: UInt8 {
        /// The row has no such column (a short CSV row, a JSON object without that key).
        case missing
        /// An unquoted CSV/TSV field: the bytes are the value.
        case delimitedPlain
        /// A quoted CSV/TSV field, quotes included.
        case delimitedQuoted
        /// Raw JSON value text.
        case json
    }

    package var start: Int
    package var end: Int
    package var kind: Kind

    static let missing = InputCell(start: 0, end: 0, kind: .missing)

    package init(start: Int, end: Int, kind: Kind) {
        self.start = start
        self.end = end
        self.kind = kind
    }
}

/// The input side of one output row. Buffers rather than arrays, and a pointer to the placemark
/// below: passing them costs no reference counting, which per row and per field added up to a
/// third of the batch time.
enum RowInput {
    /// Values by column (CSV/TSV input). `rawRecord` is the record's text when it may be copied
    /// verbatim into same-delimiter output (field count matches the header).
    case columns(UnsafeBufferPointer<InputCell>, rawRecord: Range<Int>?)
    /// The members of a JSON object, in their order.
    case members(UnsafeBufferPointer<JSONMember>)
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

/// Writes output rows in the layout's format. One per worker thread: it owns scratch space.
final class RowEncoder {
    package let layout: OutputLayout
    private let table: DelimitedTextWriter
    /// The input's delimiter when records may be copied verbatim into the output.
    private let verbatimDelimiter: UInt8?
    private let scratch = GrowableByteArray(capacity: 4096)
    private var columnSlots: [InputCell]
    /// This worker's own copy of the field list. Iterating the layout's array, whose buffer every
    /// worker shares, retains it per row: contended atomics that made two workers slower than one.
    private let fields: UnsafeMutableBufferPointer<PlacemarkField>
    /// This worker's own copies of the JSON keys, for the same reason.
    private let fieldKeys: PackedByteStrings
    private let inputColumnKeys: PackedByteStrings
    /// The lookups those fields need: a batch asking for fewer fields does less work per row.
    let needs: PlacemarkNeeds
    /// This worker's texts of the CSV or TSV row's run of country, time zone and water fields, by their numbers.
    private let memo: PlacemarkTextMemo?

    init(layout: OutputLayout, inputDelimiter: UInt8?) {
        self.layout = layout
        fields = UnsafeMutableBufferPointer<PlacemarkField>.allocate(capacity: layout.fields.count)
        _ = fields.initialize(from: layout.fields)
        needs = PlacemarkNeeds(fields: layout.fields)
        fieldKeys = PackedByteStrings(layout.quotedFieldKeys)
        inputColumnKeys = PackedByteStrings(layout.quotedInputColumnKeys)
        table = DelimitedTextWriter(delimiter: layout.tableDelimiter)
        verbatimDelimiter = inputDelimiter == layout.tableDelimiter ? inputDelimiter : nil
        columnSlots = Array(repeating: .missing, count: layout.inputColumnNames.count)
        memo = layout.format == .csv || layout.format == .tsv ? PlacemarkTextMemo(fields: UnsafeBufferPointer(fields)) : nil
    }

    deinit {
        fields.deallocate()
        fieldKeys.deallocate()
        inputColumnKeys.deallocate()
        memo?.deallocate()
    }

    /// Appends one row: the input's values, then the placemark of `point` (geocoded here) or, when
    /// there is no valid point, empty fields and the problem. `rawGeometry` is a GeoJSON input's
    /// geometry text; `featureMembers` are its other members (like "id"), kept in GeoJSON output.
    ///
    /// The answer is a plain-number record; each field's text is copied from the geocoder's text
    /// tables into `scratch` and from there, quoted or escaped, into the row: no strings are made.
    @inline(__always)
    func appendGeocodedRow<Printer: PlacemarkPrinter>(
        _ bytes: UnsafePointer<UInt8>, input: RowInput, point: RowPoint?, rawGeometry: Range<Int>? = nil,
        featureMembers: UnsafeBufferPointer<JSONMember> = UnsafeBufferPointer(start: nil, count: 0),
        problem: @autoclosure () -> String, printer: Printer, to output: GrowableByteArray
    ) {
        guard let point else {
            let needsSeparator = beginRow(
                bytes, input: input, point: nil, rawGeometry: rawGeometry, featureMembers: featureMembers, to: output)
            appendFailure(problem(), needsSeparator: needsSeparator, to: output)
            endRow(to: output)
            return
        }
        // Decided before the input's values are copied, and its texts' cache hints sent, so that the names'
        // misses overlap one another and that copy instead of coming one printed field at a time. Not an
        // optional: unwrapping one copied the whole record.
        let record = printer.record(for: Coordinate(latitude: point.latitude, longitude: point.longitude), needs: needs)
        printer.prefetchTexts(of: record, needs: needs)
        let needsSeparator = beginRow(
            bytes, input: input, point: point, rawGeometry: rawGeometry, featureMembers: featureMembers, to: output)
        switch layout.format {
        case .csv, .tsv:
            appendTableFields(of: record, printer: printer, needsDelimiter: needsSeparator, to: output)
            output.append(table.delimiter)  // the empty error column
        case .jsonl, .geojson:
            appendJSONFields(of: record, printer: printer, needsComma: needsSeparator, to: output)
            output.append(needsSeparator || fields.count > 0 ? ",\"error\":null" : "\"error\":null")
        }
        endRow(to: output)
    }

    /// Everything before the placemark fields; returns whether a separator must precede them.
    private func beginRow(
        _ bytes: UnsafePointer<UInt8>, input: RowInput, point: RowPoint?, rawGeometry: Range<Int>?,
        featureMembers: UnsafeBufferPointer<JSONMember>, to output: GrowableByteArray
    ) -> Bool {
        switch layout.format {
        case .csv, .tsv:
            return appendTableInput(bytes, input: input, point: point, to: output)
        case .jsonl:
            output.append(UInt8(ascii: "{"))
            return appendObjectInput(bytes, input: input, point: point, to: output)
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
            return appendObjectInput(bytes, input: input, point: point, to: output)
        }
    }

    /// Empty placemark fields and the error message.
    private func appendFailure(_ message: String, needsSeparator: Bool, to output: GrowableByteArray) {
        switch layout.format {
        case .csv, .tsv:
            let delimiter = table.delimiter
            var needsDelimiter = needsSeparator
            for _ in fields {
                if needsDelimiter { output.append(delimiter) }
                needsDelimiter = true
            }
            if needsDelimiter { output.append(delimiter) }
            table.appendField(message, to: output)
        case .jsonl, .geojson:
            var needsComma = needsSeparator
            for key in layout.quotedFieldKeys {
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

    private func endRow(to output: GrowableByteArray) {
        switch layout.format {
        case .csv, .tsv: output.append(UInt8(ascii: "\n"))
        case .jsonl: output.append("}\n")
        case .geojson: output.append("}}")
        }
    }

    // MARK: CSV and TSV

    /// The input's columns, then (GeoJSON input) latitude and longitude.
    private func appendTableInput(_ bytes: UnsafePointer<UInt8>, input: RowInput, point: RowPoint?, to output: GrowableByteArray) -> Bool {
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
        return needsDelimiter
    }

    private func appendTableCell(_ cell: InputCell, _ bytes: UnsafePointer<UInt8>, to output: GrowableByteArray) {
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
    private func mapMembersToColumns(_ members: UnsafeBufferPointer<JSONMember>, _ bytes: UnsafePointer<UInt8>) {
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

    /// The input's members (or "input" for unparsable text), then (GeoJSON input written as
    /// JSON Lines) latitude and longitude.
    private func appendObjectInput(_ bytes: UnsafePointer<UInt8>, input: RowInput, point: RowPoint?, to output: GrowableByteArray) -> Bool {
        var needsComma = false
        switch input {
        case .columns(let cells, _):
            for column in 0..<inputColumnKeys.count {
                if needsComma { output.append(UInt8(ascii: ",")) }
                needsComma = true
                output.append(inputColumnKeys[column])
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
        return needsComma
    }

    private func appendJSONValue(_ cell: InputCell, _ bytes: UnsafePointer<UInt8>, to output: GrowableByteArray) {
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
    private func appendNumber(_ value: Double, text: InputCell, _ bytes: UnsafePointer<UInt8>, to output: GrowableByteArray) {
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

    private func appendTableFields<Printer: PlacemarkPrinter>(
        of record: PlacemarkRecord, printer: Printer, needsDelimiter startsWithDelimiter: Bool, to output: GrowableByteArray
    ) {
        // Nearly every row: every text straight into the row, then one check of them all. Only a row with a text
        // that needs quotes (a name holding the delimiter, a quote or a line break, rare) is printed again below.
        let fieldsStart = output.count
        let delimiters = startsWithDelimiter ? fields.count : max(0, fields.count &- 1)
        if let memo {
            printer.appendTexts(
                UnsafeBufferPointer(fields), of: record, delimiter: table.delimiter, delimiterFirst: startsWithDelimiter, memo: memo,
                to: output)
        } else {
            printer.appendTexts(
                UnsafeBufferPointer(fields), of: record, delimiter: table.delimiter, delimiterFirst: startsWithDelimiter, to: output)
        }
        guard table.fieldsNeedQuotes(output.base + fieldsStart, count: output.count &- fieldsStart, delimiters: delimiters) else { return }
        output.count = fieldsStart
        appendTableFieldsQuoted(of: record, printer: printer, needsDelimiter: startsWithDelimiter, to: output)
    }

    /// The row's fields again, each checked on its own and quoted as `appendField` quotes it.
    private func appendTableFieldsQuoted<Printer: PlacemarkPrinter>(
        of record: PlacemarkRecord, printer: Printer, needsDelimiter: Bool, to output: GrowableByteArray
    ) {
        let delimiter = table.delimiter
        var needsDelimiter = needsDelimiter
        for field in fields {
            if needsDelimiter { output.append(delimiter) }
            needsDelimiter = true
            // Straight into the row, one copy: only a text that needs quotes is taken back out and written again.
            let start = output.count
            guard printer.appendText(field, of: record, to: output), table.needsQuotes(output.base + start, count: output.count &- start)
            else { continue }
            scratch.removeAll()
            scratch.append(output.base + start, count: output.count &- start)
            output.count = start
            table.appendField(scratch.base, count: scratch.count, to: output)
        }
    }

    private func appendJSONFields<Printer: PlacemarkPrinter>(
        of record: PlacemarkRecord, printer: Printer, needsComma: Bool, to output: GrowableByteArray
    ) {
        var needsComma = needsComma
        for (position, field) in fields.enumerated() {
            if needsComma { output.append(UInt8(ascii: ",")) }
            needsComma = true
            output.append(fieldKeys[position])
            output.append(UInt8(ascii: ":"))
            scratch.removeAll()
            if !printer.appendText(field, of: record, to: scratch) {
                output.append("null")
            } else if field.isNumeric {
                output.append(scratch.base, count: scratch.count)
            } else {
                JSONTextWriter.appendString(scratch.base, count: scratch.count, to: output)
            }
        }
    }
}

/// Byte strings in one allocation, read through bare pointers: per-row code that iterates an array
/// of arrays retains each inner array, and threads sharing them contend on those counts.
struct PackedByteStrings {
    private let bytes: UnsafeMutablePointer<UInt8>
    private let ends: UnsafeMutablePointer<Int>
    package let count: Int

    init(_ strings: [[UInt8]]) {
        count = strings.count
        bytes = .allocate(capacity: max(1, strings.reduce(0) { $0 + $1.count }))
        ends = .allocate(capacity: max(1, strings.count))
        var end = 0
        for (index, string) in strings.enumerated() {
            (bytes + end).initialize(from: string, count: string.count)
            end += string.count
            ends[index] = end
        }
    }

    /// Frees the strings; the owner calls it once, when it is done with them.
    func deallocate() {
        bytes.deallocate()
        ends.deallocate()
    }

    @inline(__always) subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
        let start = index == 0 ? 0 : ends[index - 1]
        return UnsafeBufferPointer(start: bytes + start, count: ends[index] - start)
    }
}
