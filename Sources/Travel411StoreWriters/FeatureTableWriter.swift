import Foundation
import Travel411Core
import Travel411Store

/// Fills one feature table: encodes each shape into a reused buffer, inserts it with a reused statement,
/// and remembers its bounding box so `finish()` can build the spatial index in one pass.
public final class FeatureTableWriter {
    public let tableName: String
    public let geometryType: GeoPackageGeometryType
    public private(set) var isFinished = false
    /// Rows inserted so far.
    public private(set) var featureCount = 0

    private let database: SQLiteDatabase
    private let columnCount: Int
    private let insertStatement: SQLiteStatement
    private var blobBuffer: [UInt8] = []
    private let indexEntries: RTreeEntries
    private var extent = BoundingBox.empty

    package init(database: SQLiteDatabase, tableName: String, geometryType: GeoPackageGeometryType, columns: [FeatureColumn]) throws {
        self.database = database
        self.tableName = tableName
        self.geometryType = geometryType
        columnCount = columns.count
        indexEntries = RTreeEntries(runPrefix: database.path + "-rtree-run-")
        let names = [GeoPackageSchema.geometryColumn] + columns.map(\.name)
        insertStatement = try database.prepare(
            """
            INSERT INTO \(GeoPackageSchema.quoted(tableName)) (\(names.map(GeoPackageSchema.quoted).joined(separator: ", ")))
            VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))
            """)
        blobBuffer.reserveCapacity(64 * 1024)
    }

    /// Writes the R-tree's sort buffer out while the table waits for `finish`, its rows all inserted.
    public func sealIndexEntries() throws { try indexEntries.seal() }

    /// Inserts one feature, `values` in the table's column order, and returns its fid. A single shape
    /// going into a multi table is stored as a one-part multi shape.
    @discardableResult
    public func insert(_ shape: Shape, values: [SQLValue]) throws -> Int64 {
        guard !isFinished else {
            throw GeoPackageError(path: database.path, "table '\(tableName)' is already finished")
        }
        guard values.count == columnCount else {
            throw GeoPackageError(
                path: database.path, "table '\(tableName)': \(values.count) values given for \(columnCount) columns")
        }
        guard let storable = geometryType.storable(shape) else {
            throw GeoPackageError(
                path: database.path,
                "table '\(tableName)' holds \(geometryType.rawValue) features, not \(GeoPackageGeometryType(of: shape).rawValue)")
        }
        let box = GeoPackageGeometryCodec.encode(storable, into: &blobBuffer)

        for (offset, value) in values.enumerated() { try insertStatement.bind(value, at: Int32(offset + 2)) }
        try blobBuffer.withUnsafeBytes { blob in
            // SQLite reads the buffer in place; reset before leaving so it never sees the buffer again.
            defer { insertStatement.reset() }
            try insertStatement.bindBlobWithoutCopy(blob, at: 1)
            try insertStatement.step()
        }
        let fid = database.lastInsertRowID
        featureCount += 1
        if !box.isEmpty {  // the standard leaves empty geometries out of the index
            try indexEntries.append(id: fid, box: box)
            extent.extend(box)
        }
        return fid
    }

    /// Builds `rtree_<table>_geom` from the collected boxes, records the table's extent in gpkg_contents
    /// and registers the index extension. The index has no update triggers: the file is read-only once built.
    public func finish() throws {
        guard !isFinished else { return }
        isFinished = true
        let rtreeTable = GeoPackageSchema.rtreeTableName(for: tableName)
        try database.execute(
            "CREATE VIRTUAL TABLE \(GeoPackageSchema.quoted(rtreeTable)) USING rtree(id, minx, maxx, miny, maxy)")
        try RTreeBulkLoader.load(indexEntries, into: rtreeTable, database: database)

        let bounds: [SQLValue] =
            extent.isEmpty
            ? [.null, .null, .null, .null]
            : [.real(extent.minX), .real(extent.minY), .real(extent.maxX), .real(extent.maxY)]
        try database.run(
            """
            UPDATE gpkg_contents SET min_x = ?, min_y = ?, max_x = ?, max_y = ?,
              last_change = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
            WHERE table_name = ?
            """,
            bounds + [.text(tableName)])
        try database.run(
            "INSERT INTO gpkg_extensions (table_name, column_name, extension_name, definition, scope) VALUES (?, ?, ?, ?, 'write-only')",
            [
                .text(tableName), .text(GeoPackageSchema.geometryColumn), .text(GeoPackageSchema.rtreeExtensionName),
                .text(GeoPackageSchema.rtreeExtensionDefinition),
            ])
    }
}

/// Feature ids and boxes waiting to go into an R-tree, stored as the 32-bit floats SQLite's R-tree keeps
/// and sorted on disk along a Hilbert curve through the boxes' centres, so that a layer of any size
/// builds its index in bounded memory.
final class RTreeEntries {
    package struct Entry {
        var key: UInt64
        var id: Int64
        var minX: Float, maxX: Float, minY: Float, maxY: Float
    }

    private let sorter: ExternalSorter<Entry>
    package var count: Int { sorter.count }

    /// Writes the sort buffer out while the table waits for `finish` (`ExternalSorter.seal`).
    func seal() throws { try sorter.seal() }

    /// The sort's runs are files named `runPrefix` and a number, unlinked as soon as they are made.
    init(runPrefix: String) {
        // 4 MB, 100,000 boxes a run: the buffer grows with the layer up to it, and a larger one made the
        // 2-million-line import's peak 1.52 times the 200,000-line one's (1.31 with 4 MB, the same time). An import
        // fills a table of each kind at once, so a small one grows only with its count (`growsWithCount`): the
        // places', boundaries' and postcode points' buffers grew to 2 MB each at 2,400 copies of Liechtenstein
        // (50,000 boxes), against 0.5 MB at 600 (issue 35).
        sorter = ExternalSorter(runPrefix: runPrefix, bufferBytes: 4 << 20, growsWithCount: true) { $0.key }
    }

    /// Adds one feature's box; entries must be added at most 2³² times per table (their order breaks ties).
    package func append(id: Int64, box: BoundingBox) throws {
        let centreX = (box.minX + box.maxX) / 2, centreY = (box.minY + box.maxY) / 2
        let hilbert = UInt64(HilbertCurve.index(longitude: centreX, latitude: centreY))
        try sorter.append(
            Entry(
                key: hilbert << 32 | UInt64(UInt32(truncatingIfNeeded: sorter.count)), id: id,
                minX: Self.roundedDown(box.minX), maxX: Self.roundedUp(box.maxX),
                minY: Self.roundedDown(box.minY), maxY: Self.roundedUp(box.maxY)))
    }

    /// Every entry in Hilbert order; the entries are gone afterwards.
    package func drain(_ body: (Entry) throws -> Void) throws { try sorter.drain(body) }

    /// The largest Float not above `value`.
    static func roundedDown(_ value: Double) -> Float {
        let nearest = Float(value)
        return Double(nearest) > value ? nearest.nextDown : nearest
    }

    /// The smallest Float not below `value`.
    static func roundedUp(_ value: Double) -> Float {
        let nearest = Float(value)
        return Double(nearest) < value ? nearest.nextUp : nearest
    }
}
