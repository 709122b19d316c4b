import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Store
import Travel411StoreWriters

/// Writes one tiled point level (the addresses, the postcodes) as its points arrive: their records a page
/// at a time in arrival order, which makes a point's id its arrival number, and their unit vectors to the
/// sorted runs of a `PointTilesBuilder`. A country's millions of addresses are never all in memory.
final class PointLevelWriter {
    package let level: PlacesSchema.PointLevel
    private let tiles: PointTilesBuilder
    private var records: PagedRecordsWriter
    private var bounds = BoundingBox.empty
    private let database: SQLiteDatabase
    /// Whether the pages are deflated (`LookupTablesWriter.deflatesPages`).
    private let deflate: Bool
    /// Deflates the pages on the other core (`BackgroundDeflate`); nil: here.
    private let deflater: BackgroundDeflate?

    /// Sort runs are spilled beside the database every `bufferBytes` of points. `withCoordinates`: the records
    /// keep each point's coordinate too (`RecordTable`), for rules that ask where a found point lies.
    init(
        _ level: PlacesSchema.PointLevel, fieldCount: Int, withCoordinates: Bool = false, database: SQLiteDatabase,
        deflate: Bool = true, deflater: BackgroundDeflate? = nil, bufferBytes: Int = 32 << 20
    ) throws {
        self.level = level
        self.database = database
        self.deflate = deflate
        self.deflater = deflater
        tiles = PointTilesBuilder(runPrefix: database.path + "-\(level.rawValue)-run-", bufferBytes: bufferBytes)
        let insert = try database.prepare("INSERT INTO travel411_pages (key, blob) VALUES (?, ?)")
        records = PagedRecordsWriter(fieldCount: fieldCount, withCoordinates: withCoordinates) { number, blob in
            let key = PlacesSchema.PageKind.pointRecords.key(level: level.ordinal, page: number)
            // Deflated on the other core while the next page fills (`BackgroundDeflate`), when there is one.
            guard deflate, let deflater else { return try insert.run([.integer(key), .recordPage(blob, deflate: deflate)]) }
            try deflater.store(blob, coding: .records) { try insert.run([.integer(key), $0.map(SQLValue.blob) ?? .null]) }
        }
    }

    func add(_ fields: [String?], at coordinate: Coordinate) throws {
        try tiles.add(id: UInt32(truncatingIfNeeded: records.recordCount), at: coordinate)
        try records.append(fields, coordinate: coordinate)
        bounds.extend(x: coordinate.longitude, y: coordinate.latitude)
    }

    /// Writes the tiles' sort buffer out while the level waits for `finish` (`ExternalSorter.seal`).
    func seal() throws { try tiles.seal() }

    /// Stores the tiles, merged from the sorted runs, the last page of records, and the level's row.
    package func finish() throws {
        let insert = try database.prepare("INSERT INTO travel411_pages (key, blob) VALUES (?, ?)")
        let directory = try tiles.finish { number, blob in
            let key = PlacesSchema.PageKind.pointTiles.key(level: level.ordinal, page: number)
            guard deflate, let deflater else { return try insert.run([.integer(key), .page(blob, deflate: deflate)]) }
            try deflater.store(blob) { try insert.run([.integer(key), $0.map(SQLValue.blob) ?? .null]) }
        }
        let recordPages = try records.finish()
        let box: [SQLValue] =
            bounds.isEmpty
            ? [.null, .null, .null, .null] : [.real(bounds.minX), .real(bounds.minY), .real(bounds.maxX), .real(bounds.maxY)]
        try database.run(
            "INSERT INTO travel411_point_indexes (level, min_x, min_y, max_x, max_y, tree, record_pages) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [.text(level.rawValue)] + box + [.blob(directory), .integer(Int64(recordPages))])
    }
}
