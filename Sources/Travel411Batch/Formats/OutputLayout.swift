import Travel411Core
import Travel411Geocoder
import Travel411Store

/// The output's columns, decided once before any row is written: the input's columns (or keys),
/// then for GeoJSON input written as a table the point's `latitude` and `longitude`, then the
/// chosen placemark fields, then `error`.
///
/// Placemark fields keep their exact JSON names; an input column that would collide with one of
/// the added names is renamed `input_<name>` so that no JSON object ever holds a key twice.
struct OutputLayout: Sendable {
    static let errorKey = "error"
    static let rawInputKey = "input"
    static let geometryColumnNames = ["latitude", "longitude"]

    let format: BatchFormat
    /// The byte between CSV/TSV output fields: a tab for TSV; for CSV the CSV input's own
    /// delimiter (so a semicolon file comes back as one), else a comma.
    let tableDelimiter: UInt8
    let fields: [PlacemarkField]
    /// Input column names as written (unique, collisions renamed). For JSON input these come from
    /// the first object and only drive CSV/TSV output; JSON output keeps every row's own keys.
    let inputColumnNames: [String]
    let addsGeometryColumns: Bool

    /// `"name"` for each input column, JSON-escaped, quotes included.
    let quotedInputColumnKeys: [[UInt8]]
    /// The same, as they appear in JSON input (before renaming), to map keyed rows onto columns.
    let quotedSourceKeys: [[UInt8]]
    let quotedFieldKeys: [[UInt8]]
    /// Names added by the output, quoted: a keyed input member named like one of them is renamed.
    let quotedReservedKeys: [[UInt8]]

    init(
        format: BatchFormat, fields: [PlacemarkField], sourceColumnNames: [String], addsGeometryColumns: Bool,
        csvDelimiter: UInt8 = UInt8(ascii: ",")
    ) {
        self.format = format
        tableDelimiter = format == .tsv ? UInt8(ascii: "\t") : csvDelimiter
        self.fields = fields
        self.addsGeometryColumns = addsGeometryColumns
        var reserved = fields.map(\.rawValue) + [Self.errorKey]
        if addsGeometryColumns { reserved += Self.geometryColumnNames }
        var taken = Set(reserved)
        var names: [String] = []
        for sourceName in sourceColumnNames {
            var name = sourceName
            while taken.contains(name) { name = "input_" + name }
            taken.insert(name)
            names.append(name)
        }
        inputColumnNames = names
        quotedInputColumnKeys = names.map(Self.quotedJSON)
        quotedSourceKeys = sourceColumnNames.map(Self.quotedJSON)
        quotedFieldKeys = fields.map { Self.quotedJSON($0.rawValue) }
        quotedReservedKeys = reserved.map(Self.quotedJSON)
    }

    /// Every column of a table output, in order.
    var allColumnNames: [String] {
        inputColumnNames + (addsGeometryColumns ? Self.geometryColumnNames : []) + fields.map(\.rawValue) + [Self.errorKey]
    }

    static func quotedJSON(_ text: String) -> [UInt8] {
        let buffer = GrowableByteArray(capacity: text.utf8.count + 8)
        JSONTextWriter.appendString(text, to: buffer)
        return Array(buffer.bytes)
    }

    /// What goes before the first row.
    func prologue() -> [UInt8] {
        let buffer = GrowableByteArray(capacity: 256)
        switch format {
        case .csv, .tsv:
            let writer = DelimitedTextWriter(delimiter: tableDelimiter)
            for (index, name) in allColumnNames.enumerated() {
                if index > 0 { buffer.append(writer.delimiter) }
                writer.appendField(name, to: buffer)
            }
            buffer.append(UInt8(ascii: "\n"))
        case .jsonl:
            break
        case .geojson:
            buffer.append("{\"type\":\"FeatureCollection\",\"features\":[")
        }
        return Array(buffer.bytes)
    }

    /// What goes after the last row.
    func epilogue() -> [UInt8] {
        format == .geojson ? Array("\n]}\n".utf8) : []
    }

    /// GeoJSON rows start with ",\n"; the writer drops the comma of the very first one, since a
    /// worker cannot know whether an earlier chunk produced any row.
    var rowSeparatorToDropAtStart: Int { format == .geojson ? 1 : 0 }
}
