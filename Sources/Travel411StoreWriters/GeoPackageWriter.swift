import Foundation
import Travel411Core
import Travel411Store

/// Turns an empty SQLite database into a GeoPackage and fills it in one transaction.
///
/// The database is tuned for a file that is built once and then only read: no rollback journal on disk,
/// no syncs until `finish()`. Build it inside `AtomicFileReplacement.replace` so a crash never leaves a
/// half-written file where readers look for it. Not thread-safe, like the connection it uses.
public final class GeoPackageWriter {
    /// Bumped whenever travel411's own tables or layers change meaning; readers compare it.
    public static let schemaVersion = 1

    public let database: SQLiteDatabase
    private var tableWriters: [FeatureTableWriter] = []
    private var tableNames: Set<String> = []  // lower-cased: SQLite names are case-insensitive
    private var isFinished = false
    private let recordSourceStatement: SQLiteStatement
    private let setMetadataStatement: SQLiteStatement

    private static let sourcesTable = "travel411_sources"
    private static let metadataTable = "travel411_metadata"

    /// Prepares `database`, which must be empty, as a GeoPackage: pragmas, the standard's tables and
    /// spatial reference systems, travel411's metadata tables. Opens the transaction `finish()` commits.
    public init(database: SQLiteDatabase) throws {
        self.database = database
        let objectCount = try database.query("SELECT count(*) FROM sqlite_master").first?.first?.int64Value ?? 0
        guard objectCount == 0 else {
            throw GeoPackageError(path: database.path, "cannot build a GeoPackage here: the database is not empty")
        }
        // page_size only takes effect before the first table exists. MEMORY journal keeps ROLLBACK working
        // (OFF would not) at almost no cost, since a fresh file has no old pages to save. The cache is 32 MiB:
        // a cache that held the whole import (256 MiB, for a ~245 MB database) kept every page in memory until
        // COMMIT, a third of the import's peak; when this one fills, SQLite spills pages to the file (the OS's
        // page cache, with synchronous OFF), which costs the default import no measurable time.
        try database.execute(
            """
            PRAGMA page_size = 4096;
            PRAGMA journal_mode = MEMORY;
            PRAGMA synchronous = OFF;
            PRAGMA cache_size = -32768;
            PRAGMA temp_store = MEMORY;
            PRAGMA application_id = \(GeoPackageSchema.applicationID);
            PRAGMA user_version = \(GeoPackageSchema.userVersion);
            """)
        try database.execute("BEGIN")
        do {
            try database.execute(GeoPackageSchema.coreTables)
            let insertSRS = try database.prepare(
                """
                INSERT INTO gpkg_spatial_ref_sys
                  (srs_name, srs_id, organization, organization_coordsys_id, definition, description)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
            for row in GeoPackageSchema.spatialReferenceSystems { try insertSRS.run(row) }

            try Self.createAttributesTable(
                Self.sourcesTable, primaryKey: "id", columns: SourceRecord.columns,
                description: "the source files each layer was imported from", in: database)
            // A plain key/value table outside gpkg_contents: GeoPackage wants integer keys in
            // registered tables, and GDAL simply ignores unregistered ones.
            try database.execute("CREATE TABLE \(Self.metadataTable) (key TEXT PRIMARY KEY, value TEXT)")
            recordSourceStatement = try database.prepare(
                """
                INSERT INTO \(Self.sourcesTable) (\(SourceRecord.columns.map { GeoPackageSchema.quoted($0.name) }.joined(separator: ", ")))
                VALUES (\(Array(repeating: "?", count: SourceRecord.columns.count).joined(separator: ", ")))
                """)
            setMetadataStatement = try database.prepare(
                "INSERT OR REPLACE INTO \(Self.metadataTable) (key, value) VALUES (?, ?)")
            tableNames.insert(Self.sourcesTable)
            tableNames.insert(Self.metadataTable)

            try setMetadata(key: "schema_version", value: String(Self.schemaVersion))
            try setMetadata(key: "tool_version", value: Travel411.version)
            try setMetadata(key: "build_date", value: GeoPackageSchema.timestamp(Date()))
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// Creates a feature table `name(fid, geom, columns…)` and returns the writer that fills it.
    /// Call the returned writer's `finish()` (or this writer's) once its last feature is in.
    public func createFeatureTable(
        _ name: String, geometryType: GeoPackageGeometryType, columns: [FeatureColumn], description: String
    ) throws -> FeatureTableWriter {
        try checkWritable()
        try claimTableName(name, columns: columns)
        try database.execute(
            Self.createTableSQL(
                name, primaryKey: GeoPackageSchema.primaryKeyColumn,
                geometryType: geometryType, columns: columns))
        try database.run(
            "INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id) VALUES (?, 'features', ?, ?, ?)",
            [.text(name), .text(name), .text(description), .integer(Int64(GeoPackageGeometryCodec.wgs84SRSID))])
        try database.run(
            "INSERT INTO gpkg_geometry_columns (table_name, column_name, geometry_type_name, srs_id, z, m) VALUES (?, ?, ?, ?, 0, 0)",
            [
                .text(name), .text(GeoPackageSchema.geometryColumn), .text(geometryType.rawValue),
                .integer(Int64(GeoPackageGeometryCodec.wgs84SRSID)),
            ])
        let writer = try FeatureTableWriter(
            database: database, tableName: name, geometryType: geometryType, columns: columns)
        tableWriters.append(writer)
        return writer
    }

    /// Creates a table without geometry, registered as GeoPackage 'attributes' so GDAL and QGIS show it.
    @discardableResult
    public func createAttributeTable(_ name: String, columns: [FeatureColumn], description: String) throws -> AttributeTableWriter {
        try checkWritable()
        try claimTableName(name, columns: columns)
        try Self.createAttributesTable(name, columns: columns, description: description, in: database)
        return try AttributeTableWriter(database: database, tableName: name, columns: columns)
    }

    /// Records where one layer came from, for `travel411 info` and to detect changed sources.
    @discardableResult
    public func recordSource(_ source: SourceRecord) throws -> Int64 {
        try checkWritable()
        try recordSourceStatement.run(source.values)
        return database.lastInsertRowID
    }

    /// Sets (or replaces) one entry of travel411_metadata. `schema_version`, `tool_version` and
    /// `build_date` are written by `init`; set them again to override.
    public func setMetadata(key: String, value: String) throws {
        try checkWritable()
        try setMetadataStatement.run([.text(key), .text(value)])
    }

    /// Finishes every table still open, commits, and restores durable settings. Afterwards the file is
    /// complete; release the database (closing it) before moving the file into place.
    public func finish() throws {
        try checkWritable()
        for writer in tableWriters where !writer.isFinished { try writer.finish() }
        try database.execute("COMMIT")
        isFinished = true
        try database.execute("PRAGMA synchronous = FULL; PRAGMA journal_mode = DELETE;")
    }

    // MARK: Helpers

    private func checkWritable() throws {
        guard !isFinished else {
            throw GeoPackageError(path: database.path, "the GeoPackage is already finished")
        }
    }

    /// Rejects names the standard reserves, duplicates, and columns that clash with fid/geom.
    private func claimTableName(_ name: String, columns: [FeatureColumn]) throws {
        let lowered = name.lowercased()
        guard !name.isEmpty, !lowered.hasPrefix("gpkg_"), !lowered.hasPrefix("sqlite_"), !lowered.hasPrefix("rtree_") else {
            throw GeoPackageError(path: database.path, "invalid table name '\(name)': empty or reserved prefix")
        }
        guard !tableNames.contains(lowered) else {
            throw GeoPackageError(path: database.path, "table '\(name)' is created twice")
        }
        var seen: Set<String> = [GeoPackageSchema.primaryKeyColumn, GeoPackageSchema.geometryColumn]
        for column in columns {
            guard !column.name.isEmpty, seen.insert(column.name.lowercased()).inserted else {
                throw GeoPackageError(
                    path: database.path, "table '\(name)': column name '\(column.name)' is empty, reserved or repeated")
            }
        }
        tableNames.insert(lowered)
    }

    private static func createTableSQL(
        _ name: String, primaryKey: String, geometryType: GeoPackageGeometryType?, columns: [FeatureColumn]
    ) -> String {
        var declarations = ["\(GeoPackageSchema.quoted(primaryKey)) INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL"]
        if let geometryType {
            declarations.append("\(GeoPackageSchema.quoted(GeoPackageSchema.geometryColumn)) \(geometryType.rawValue)")
        }
        declarations += columns.map { "\(GeoPackageSchema.quoted($0.name)) \($0.type.rawValue)" }
        return "CREATE TABLE \(GeoPackageSchema.quoted(name)) (\n  \(declarations.joined(separator: ",\n  "))\n)"
    }

    private static func createAttributesTable(
        _ name: String, primaryKey: String = GeoPackageSchema.primaryKeyColumn, columns: [FeatureColumn],
        description: String, in database: SQLiteDatabase
    ) throws {
        try database.execute(createTableSQL(name, primaryKey: primaryKey, geometryType: nil, columns: columns))
        try database.run(
            "INSERT INTO gpkg_contents (table_name, data_type, identifier, description) VALUES (?, 'attributes', ?, ?)",
            [.text(name), .text(name), .text(description)])
    }
}

/// Fills one attributes table created by `GeoPackageWriter.createAttributeTable`.
public final class AttributeTableWriter {
    public let tableName: String
    private let database: SQLiteDatabase
    private let columnCount: Int
    private let insertStatement: SQLiteStatement

    package init(database: SQLiteDatabase, tableName: String, columns: [FeatureColumn]) throws {
        self.database = database
        self.tableName = tableName
        columnCount = columns.count
        insertStatement = try database.prepare(
            """
            INSERT INTO \(GeoPackageSchema.quoted(tableName)) (\(columns.map { GeoPackageSchema.quoted($0.name) }.joined(separator: ", ")))
            VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))
            """)
    }

    /// Inserts one row, `values` in column order; returns its fid.
    @discardableResult
    public func insert(_ values: [SQLValue]) throws -> Int64 {
        guard values.count == columnCount else {
            throw GeoPackageError(
                path: database.path, "table '\(tableName)': \(values.count) values given for \(columnCount) columns")
        }
        try insertStatement.run(values)
        return database.lastInsertRowID
    }
}
