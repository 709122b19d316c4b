import Foundation

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
    private var indexEntries = RTreeEntries()
    private var extent = BoundingBox.empty

    init(database: SQLiteDatabase, tableName: String, geometryType: GeoPackageGeometryType, columns: [FeatureColumn]) throws {
        self.database = database
        self.tableName = tableName
        self.geometryType = geometryType
        columnCount = columns.count
        let names = [GeoPackageSchema.geometryColumn] + columns.map(\.name)
        insertStatement = try database.prepare(
            """
            INSERT INTO \(GeoPackageSchema.quoted(tableName)) (\(names.map(GeoPackageSchema.quoted).joined(separator: ", ")))
            VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))
            """)
        blobBuffer.reserveCapacity(64 * 1024)
    }

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
            indexEntries.append(id: fid, box: box)
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
        indexEntries = RTreeEntries()  // free the memory before the next table

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

/// Feature ids and boxes waiting to go into an R-tree, stored as the 32-bit floats SQLite's R-tree keeps.
struct RTreeEntries {
    private(set) var ids: [Int64] = []
    /// minX, maxX, minY, maxY per entry, rounded outwards so each box still contains its geometry.
    private(set) var coordinates: [Float] = []

    var count: Int { ids.count }

    mutating func append(id: Int64, box: BoundingBox) {
        ids.append(id)
        coordinates.append(Self.roundedDown(box.minX))
        coordinates.append(Self.roundedUp(box.maxX))
        coordinates.append(Self.roundedDown(box.minY))
        coordinates.append(Self.roundedUp(box.maxY))
    }

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
