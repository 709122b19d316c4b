import Foundation
import Travel411Core

/// Everything decided before the first chunk: how records are framed, the output columns and how
/// a worker turns chunks into rows. Reading the header (or GeoJSON preamble) consumes it.
struct PreparedInput {
    var framer: any RecordFramer
    package var layout: OutputLayout
    /// CSV/TSV input's delimiter, so same-delimiter output can copy records verbatim.
    var inputDelimiter: UInt8?
    var makeProcessor: (RowEncoder) -> any ChunkProcessor
}

enum InputPreparation {
    /// How far ahead the header, preamble or schema may be looked for.
    static let lookAheadLimit = 16 << 20

    static func prepare(
        format: BatchFormat, source: ChunkSource, options: BatchOptions,
        printer: any PlacemarkPrinter
    ) throws -> PreparedInput {
        let columns = CoordinateColumns(latitudeName: options.latColumn, longitudeName: options.lonColumn)
        switch format {
        case .csv, .tsv:
            let delimiter =
                format == .tsv
                ? UInt8(ascii: "\t")
                : (options.csvDelimiter ?? CSVDelimiterDetector.delimiter(ofHeaderIn: source.buffer.bytes)).byte
            let delimited = try readHeader(source: source, delimiter: delimiter, columns: columns)
            // CSV output speaks the CSV input's dialect; TSV input written as CSV gets commas.
            let layout = OutputLayout(
                format: options.outputFormat, fields: options.fields, sourceColumnNames: delimited.names, addsGeometryColumns: false,
                csvDelimiter: format == .csv ? delimiter : UInt8(ascii: ","))
            return PreparedInput(
                framer: DelimitedRecordFramer(delimiter: delimiter), layout: layout, inputDelimiter: delimiter,
                makeProcessor: { DelimitedChunkProcessor(layout: delimited.layout, encoder: $0, printer: printer) })
        case .jsonl:
            let isTable = options.outputFormat == .csv || options.outputFormat == .tsv
            let names = isTable ? firstObjectKeys(source: source) : []
            let layout = OutputLayout(
                format: options.outputFormat, fields: options.fields, sourceColumnNames: names, addsGeometryColumns: false)
            return PreparedInput(
                framer: LineFramer(), layout: layout, inputDelimiter: nil,
                makeProcessor: { JSONLinesChunkProcessor(columns: columns, encoder: $0, printer: printer) })
        case .geojson:
            try skipPreamble(source: source)
            let isTable = options.outputFormat == .csv || options.outputFormat == .tsv
            let names = isTable ? try firstFeaturePropertyKeys(source: source) : []
            let layout = OutputLayout(
                format: options.outputFormat, fields: options.fields, sourceColumnNames: names,
                addsGeometryColumns: options.outputFormat != .geojson)
            return PreparedInput(
                framer: FeatureArrayFramer(), layout: layout, inputDelimiter: nil,
                makeProcessor: { GeoJSONChunkProcessor(encoder: $0, printer: printer) })
        }
    }

    // MARK: CSV and TSV

    /// Reads the first non-blank record. If it names latitude and longitude columns it is the
    /// header and is consumed; if its first two fields are numbers the input has no header and
    /// they are latitude and longitude.
    private static func readHeader(source: ChunkSource, delimiter: UInt8, columns: CoordinateColumns) throws -> (
        names: [String], layout: DelimitedLayout
    ) {
        let splitter = DelimitedRecordSplitter(delimiter: delimiter)
        var fields: [InputCell] = []
        var target = 64 << 10
        // What is buffered is read first: waiting for more would hold back a pipe's first row.
        var needsMore = source.buffer.count == 0
        while true {
            if needsMore { try source.fill(to: target, untilIdle: true) }
            needsMore = true
            let buffer = source.buffer
            guard buffer.count > 0 else {
                return ([], DelimitedLayout(delimiter: delimiter, columnCount: 0, latitudeColumn: 0, longitudeColumn: 0))
            }
            let bytes = UnsafePointer(buffer.base)
            let record = splitter.split(bytes, from: 0, to: buffer.count, into: &fields)
            guard record.endsWithNewline || source.isAtEndOfInput else {
                guard buffer.count < lookAheadLimit else { throw BatchError("\(source.inputName): the first record is longer than 16 MiB") }
                target = buffer.count + (64 << 10)
                continue
            }
            if DelimitedRecordSplitter.isBlank(fields) {
                source.discard(prefix: record.next, units: record.lines)
                needsMore = source.buffer.count == 0
                continue
            }
            let names = fields.map { DelimitedRecordSplitter.text(of: $0, in: bytes).trimmingCharacters(in: .whitespaces) }
            let located = columns.locate(in: names)
            if let latitude = located.latitude, let longitude = located.longitude {
                source.discard(prefix: record.next, units: record.lines)
                return (
                    names,
                    DelimitedLayout(delimiter: delimiter, columnCount: names.count, latitudeColumn: latitude, longitudeColumn: longitude)
                )
            }
            // Header names are the file's bytes: escaped and shortened, so a binary file cannot paint the terminal.
            let shown = names.prefix(12).map { "'\(DisplayText.sanitized($0, limit: 40))'" }
            let listed = (shown + (names.count > 12 ? ["… \(names.count - 12) more"] : [])).joined(separator: ", ")
            if columns.describesLatitudeExplicitly || columns.describesLongitudeExplicitly {
                let missing = located.latitude == nil ? "latitude" : "longitude"
                throw BatchError("\(source.inputName): the header has no \(missing) column of the name given (columns: \(listed))")
            }
            let decimalMark = DecimalMark(fieldDelimiter: delimiter)
            let startsWithTwoNumbers =
                fields.count >= 2
                && fields[0...1].allSatisfy { field in
                    var text = DelimitedRecordSplitter.text(of: field, in: bytes)
                    return text.withUTF8 { utf8 in utf8.baseAddress.flatMap { decimalMark.parse($0, from: 0, to: utf8.count) } != nil }
                }
            if startsWithTwoNumbers {
                let names = ["lat", "lon"] + (2..<max(2, fields.count)).map { "column\($0 + 1)" }
                return (names, DelimitedLayout(delimiter: delimiter, columnCount: fields.count, latitudeColumn: 0, longitudeColumn: 1))
            }
            throw BatchError(
                "\(source.inputName): cannot tell which columns hold latitude and longitude (columns: \(listed)); name them with --lat-column and --lon-column"
            )
        }
    }

    // MARK: JSON Lines

    /// The keys of the first line holding a JSON object: the columns of CSV/TSV output.
    /// Reads no further than the line holding it, so a pipe's first row is answered without waiting for more.
    private static func firstObjectKeys(source: ChunkSource) -> [String] {
        let limit = 1 << 20
        var target = 64 << 10
        var index = 0
        var members: [JSONMember] = []
        // What is buffered is read first: waiting for more would hold back a pipe's first row.
        var needsMore = source.buffer.count == 0
        while !needsMore || (try? source.fill(to: target, untilIdle: true)) != nil {
            needsMore = true
            let buffer = source.buffer
            let bytes = UnsafePointer(buffer.base)
            while index < buffer.count {
                var lineEnd = index
                while lineEnd < buffer.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                // A line cut by the end of what has arrived is read again once it is whole.
                guard lineEnd < buffer.count || source.isAtEndOfInput || buffer.count >= limit else { break }
                let start = JSONScanner.skipWhitespace(bytes, index, lineEnd)
                if start < lineEnd, (try? JSONScanner.scanObjectMembers(bytes, start, lineEnd, into: &members)) != nil {
                    return keys(of: members, in: bytes)
                }
                index = lineEnd + 1
            }
            if source.isAtEndOfInput || buffer.count >= limit { return [] }
            target = min(limit, buffer.count + (64 << 10))
        }
        return []
    }

    private static func keys(of members: [JSONMember], in bytes: UnsafePointer<UInt8>) -> [String] {
        var names: [String] = []
        let scratch = GrowableByteArray(capacity: 256)
        for member in members {
            scratch.removeAll()
            JSONScanner.decodeString(bytes, from: member.keyStart, to: member.keyEnd, into: scratch)
            let name = String(decoding: scratch.bytes, as: UTF8.self)
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    // MARK: GeoJSON

    /// Consumes everything up to and including the '[' of the top-level "features" array,
    /// skipping members such as "name", "crs" or "bbox" that may come first.
    private static func skipPreamble(source: ChunkSource) throws {
        var target = 64 << 10
        var needsMore = source.buffer.count == 0
        while true {
            if needsMore { try source.fill(to: target, untilIdle: true) }
            needsMore = true
            let buffer = source.buffer
            let bytes = UnsafePointer(buffer.base)
            do {
                let arrayStart = try featuresArrayStart(bytes, count: buffer.count)
                source.discard(prefix: arrayStart, units: 0)
                return
            } catch let error as JSONSyntaxError where error.offset >= buffer.count && !source.isAtEndOfInput {
                guard buffer.count < lookAheadLimit else {
                    throw BatchError("\(source.inputName): no \"features\" array in the first 16 MiB")
                }
                target = buffer.count + (1 << 20)
            } catch let error as JSONSyntaxError {
                throw BatchError("\(source.inputName): not a GeoJSON FeatureCollection (\(error.reason) at byte \(error.offset + 1))")
            }
        }
    }

    private static func featuresArrayStart(_ bytes: UnsafePointer<UInt8>, count: Int) throws -> Int {
        var index = JSONScanner.skipWhitespace(bytes, 0, count)
        guard index < count else { throw JSONSyntaxError(reason: "empty input", offset: count) }
        guard bytes[index] == UInt8(ascii: "{") else { throw JSONSyntaxError(reason: "expected an object", offset: index) }
        index = JSONScanner.skipWhitespace(bytes, index + 1, count)
        while index < count {
            guard bytes[index] == UInt8(ascii: "\"") else { throw JSONSyntaxError(reason: "expected a key", offset: index) }
            var hasEscapes = false
            let keyStart = index
            let keyEnd = try JSONScanner.scanString(bytes, index, count, hasEscapes: &hasEscapes)
            index = JSONScanner.skipWhitespace(bytes, keyEnd, count)
            guard index < count, bytes[index] == UInt8(ascii: ":") else { throw JSONSyntaxError(reason: "expected ':'", offset: index) }
            index = JSONScanner.skipWhitespace(bytes, index + 1, count)
            if JSONScanner.equals("\"features\"", bytes, from: keyStart, to: keyEnd) {
                guard index < count else { throw JSONSyntaxError(reason: "features value missing", offset: index) }
                guard bytes[index] == UInt8(ascii: "[") else {
                    throw JSONSyntaxError(reason: "\"features\" is not an array", offset: index)
                }
                return index + 1
            }
            index = JSONScanner.skipWhitespace(bytes, try JSONScanner.scanValue(bytes, index, count), count)
            guard index < count else { break }
            if bytes[index] == UInt8(ascii: "}") { throw JSONSyntaxError(reason: "no \"features\" array", offset: index) }
            guard bytes[index] == UInt8(ascii: ",") else { throw JSONSyntaxError(reason: "expected ',' or '}'", offset: index) }
            index = JSONScanner.skipWhitespace(bytes, index + 1, count)
        }
        throw JSONSyntaxError(reason: "unterminated object", offset: count)
    }

    /// The property keys of the first feature: the input columns of CSV/TSV output.
    private static func firstFeaturePropertyKeys(source: ChunkSource) throws -> [String] {
        try source.fill(to: 1 << 20)
        let buffer = source.buffer
        let bytes = UnsafePointer(buffer.base)
        var index = 0
        while index < buffer.count && (JSONScanner.isWhitespace(bytes[index]) || bytes[index] == UInt8(ascii: ",")) { index += 1 }
        var members: [JSONMember] = []
        guard (try? JSONScanner.scanObjectMembers(bytes, index, buffer.count, into: &members)) != nil,
            let properties = members.first(where: { JSONScanner.equals("\"properties\"", bytes, from: $0.keyStart, to: $0.keyEnd) }),
            bytes[properties.valueStart] == UInt8(ascii: "{")
        else { return [] }
        var propertyMembers: [JSONMember] = []
        _ = try? JSONScanner.scanObjectMembers(bytes, properties.valueStart, properties.valueEnd, into: &propertyMembers)
        return keys(of: propertyMembers, in: bytes)
    }
}
