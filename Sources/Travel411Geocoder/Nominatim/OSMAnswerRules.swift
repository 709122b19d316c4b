import Foundation
import Travel411Core
import Travel411Store

/// How a database imported from OpenStreetMap extracts answers, where Nominatim's rules differ from those
/// made for the embedded data (docs/osm.md): the nearest object, a street or an address, answers; streets
/// and postcode points count as far as Nominatim looks for them. The import records the rules
/// in travel411_metadata; a database without that entry (the embedded data's) answers as before.
///
/// The rules hold where the extracts are (`coverage`, each extract's extent as the import recorded it, and as far
/// beyond as Nominatim looks for a street): Helsinki's extract beside the embedded data leaves every answer in
/// London as it was, postcodes from 200 m, not 5 km, and as fast.
package struct OSMAnswerRules: Sendable, Equatable {
    package static let metadataKey = "osm_answer_rules"
    /// The entry's value: the Nominatim whose rules these follow.
    package static let metadataValue = "nominatim-5.3"
    /// The entry of the extracts' extents: `minX minY maxX maxY` each, separated by `;`.
    package static let coverageKey = "osm_coverage"
    /// Nominatim looks for a street's postcode within ± 5 km (its default postcode extent): OpenStreetMap's
    /// postcode points are the means of the addresses carrying each postcode, a few per town, not one per
    /// block as Code-Point's.
    static let postcodeRadius = 5000.0

    /// Nominatim answers the nearest street within 0.006° of the point: 670 m north-south, 450 m east-west at
    /// 47° N, 330 m at 60° N. One radius in metres for every direction and latitude: 500 m.
    static let thoroughfareRadius = 500.0

    var postcodeRadiusMetres = OSMAnswerRules.postcodeRadius
    var thoroughfareRadiusMetres = OSMAnswerRules.thoroughfareRadius
    /// The extracts' extents, widened by Nominatim's reach.
    var coverage: [BoundingBox] = []
    /// Within the extents, the 0.1° tiles near the extracts' data (`DataTiles`); nil in a database imported before
    /// they were recorded, where the extents alone decide.
    var coverageTiles: DataTiles?

    /// The entry of the tiles near the extracts' data (`DataTiles.text`).
    package static let coverageTilesKey = "osm_coverage_tiles"
    /// The entry of `extractLocalityCount`.
    package static let extractLocalitiesKey = "osm_extract_localities"
    /// How many of the locality level's places are the extracts' own, the first ones; the others (GeoNames', kept
    /// where no town of the extract reaches) only describe a point, and name no town or suburb where the rules
    /// hold. Nil in a database imported before it was recorded.
    var extractLocalityCount: Int?

    /// Whether the rules hold at `point`: inside an extract's extent, and in a tile holding or beside its data (a
    /// Norway extract's box holds Helsinki, where the extract has nothing and other layers answer by their rules).
    @inline(__always) func covers(_ point: Coordinate) -> Bool {
        coverage.contains { $0.contains(x: point.longitude, y: point.latitude) } && (coverageTiles?.contains(point) ?? true)
    }

    package static func coverageText(_ extents: [BoundingBox]) -> String {
        extents.map { "\($0.minX) \($0.minY) \($0.maxX) \($0.maxY)" }.joined(separator: ";")
    }

    static func coverage(fromText text: String) -> [BoundingBox] {
        let reach = ReverseGeocoder.nominatimSearchDegrees
        return text.split(separator: ";").compactMap { box in
            let values = box.split(separator: " ").compactMap { Double($0) }
            guard values.count == 4 else { return nil }
            return BoundingBox(minX: values[0], minY: values[1], maxX: values[2], maxY: values[3]).widened(by: reach)
        }
    }

    /// The rules the database at `databasePath` records, nil for none (or an unreadable database: opening
    /// it for lookups then says what is wrong).
    package static func read(databasePath: String) -> OSMAnswerRules? {
        guard let database = try? SQLiteDatabase(path: databasePath, mode: .readOnly),
            (try? database.tableExists("travel411_metadata")) == true
        else { return nil }
        func value(_ key: String) -> String? {
            (try? database.query("SELECT value FROM travel411_metadata WHERE key = ?", [.text(key)]))?.first?.first?.stringValue
        }
        guard value(metadataKey) != nil else { return nil }
        var rules = OSMAnswerRules()
        rules.coverage = value(coverageKey).map(Self.coverage(fromText:)) ?? []
        rules.coverageTiles = value(coverageTilesKey).flatMap(DataTiles.init(text:))
        rules.extractLocalityCount = value(extractLocalitiesKey).flatMap { Int($0) }
        return rules
    }
}

/// The 0.1° tiles (numbered as `TileGrid` numbers them: row × 3600 + column) that hold an extract's points and
/// lines, and their neighbours, as far as Nominatim looks for a street (0.007°) reaching at most one tile over.
/// Kept as one bit per tile of the tiles' bounding rows and columns: a Norway extract's 14 × 27 degrees are
/// 37,000 bits.
package struct DataTiles: Sendable, Equatable {
    private let firstRow: Int, firstColumn: Int, columns: Int
    private let bits: [UInt64]

    /// The tiles `keys` name, each with its eight neighbours.
    package init(keys: Set<UInt32>) {
        let rows = keys.map { Int($0) / TileGrid.tileColumns }, columns = keys.map { Int($0) % TileGrid.tileColumns }
        firstRow = (rows.min() ?? 0) - 1
        firstColumn = (columns.min() ?? 0) - 1
        self.columns = keys.isEmpty ? 0 : (columns.max() ?? 0) + 2 - firstColumn
        let rowCount = keys.isEmpty ? 0 : (rows.max() ?? 0) + 2 - firstRow
        var bits = [UInt64](repeating: 0, count: (rowCount * self.columns + 63) / 64)
        for (row, column) in zip(rows, columns) {
            for r in row - 1...row + 1 {
                for c in column - 1...column + 1 {
                    let index = (r - firstRow) * self.columns + (c - firstColumn)
                    bits[index >> 6] |= 1 << UInt64(index & 63)
                }
            }
        }
        self.bits = bits
    }

    /// As `text` wrote it; nil for text that is not.
    package init?(text: String) {
        let parts = text.split(separator: " ")
        guard parts.count >= 3, let row = Int(parts[0]), let column = Int(parts[1]), let columns = Int(parts[2]), columns >= 0
        else { return nil }
        let words = parts.dropFirst(3).compactMap { UInt64($0, radix: 16) }
        guard words.count == parts.count - 3 else { return nil }
        firstRow = row
        firstColumn = column
        self.columns = columns
        bits = words
    }

    /// `firstRow firstColumn columns` then the bits, 64 to a hexadecimal word.
    package var text: String {
        ([String(firstRow), String(firstColumn), String(columns)] + bits.map { String($0, radix: 16) }).joined(separator: " ")
    }

    @inline(__always) package func contains(_ point: Coordinate) -> Bool {
        contains(row: TileGrid.tileRow(point.latitude) - firstRow, column: TileGrid.tileColumn(point.longitude) - firstColumn)
    }

    /// Whether the point's tile or one of its eight neighbours is one of these: a point within two tiles of the data.
    package func containsOrBorders(_ point: Coordinate) -> Bool {
        let row = TileGrid.tileRow(point.latitude) - firstRow, column = TileGrid.tileColumn(point.longitude) - firstColumn
        for r in row - 1...row + 1 {
            for c in column - 1...column + 1 where contains(row: r, column: c) { return true }
        }
        return false
    }

    @inline(__always) private func contains(row: Int, column: Int) -> Bool {
        guard row >= 0, column >= 0, column < columns else { return false }
        let index = row * columns + column
        return index >> 6 < bits.count && bits[index >> 6] >> UInt64(index & 63) & 1 != 0
    }
}
