import Foundation
import Travel411Core

/// Read-only access to a GeoPackage written by `GeoPackageWriter`: layers, R-tree candidates, geometries
/// and the import record. Statements are prepared once per table and reused. Not thread-safe: open one
/// reader per thread.
public final class GeoPackageReader {
    package let database: SQLiteDatabase
    public var path: String { database.path }

    private var tables: [String: FeatureTable] = [:]

    /// The prepared statements for one feature table.
    private struct FeatureTable {
        /// The R-tree query, or for a table without an index, every fid that has a geometry.
        let candidates: SQLiteStatement
        let isIndexed: Bool
        let geometry: SQLiteStatement
    }

    public convenience init(path: String) throws {
        try self.init(database: SQLiteDatabase(path: path, mode: .readOnly))
    }

    /// Reads `database`, a connection shared with whoever opened it (`PlacesDatabase`).
    package init(database: SQLiteDatabase) throws {
        self.database = database
        let applicationID = try database.query("PRAGMA application_id").first?.first?.int64Value ?? 0
        guard applicationID == Int64(GeoPackageSchema.applicationID), try database.tableExists("gpkg_contents") else {
            throw GeoPackageError(path: database.path, "not a GeoPackage (rebuild it with `travel411 import`)")
        }
    }

    /// Every feature table and its row count, by name.
    public func layers() throws -> [(name: String, featureCount: Int)] {
        let names = try database.query(
            "SELECT table_name FROM gpkg_contents WHERE data_type = 'features' ORDER BY table_name"
        ).compactMap { $0.first?.stringValue }
        return try names.map { name in
            let count = try database.query("SELECT count(*) FROM \(GeoPackageSchema.quoted(name))").first?.first?.int64Value ?? 0
            return (name: name, featureCount: Int(count))
        }
    }

    /// The fids whose stored boxes intersect `box`: a superset of the features that do, since the index
    /// keeps boxes rounded outwards. Without a spatial index, every fid with a geometry.
    public func candidates(in table: String, box: BoundingBox) throws -> [Int64] {
        guard !box.isEmpty else { return [] }
        let prepared = try featureTable(table)
        let statement = prepared.candidates
        defer { statement.reset() }
        if prepared.isIndexed {
            try statement.bind([.real(box.maxX), .real(box.minX), .real(box.maxY), .real(box.minY)])
        }
        var ids: [Int64] = []
        while try statement.step() { ids.append(statement.int64(0)) }
        return ids
    }

    /// The feature's shape; nil if there is no such fid or its geometry is NULL or empty.
    public func geometry(table: String, fid: Int64) throws -> Shape? {
        let statement = try featureTable(table).geometry
        defer { statement.reset() }
        try statement.bind(.integer(fid), at: 1)
        guard try statement.step(), !statement.isNull(0) else { return nil }
        do {
            return try statement.withBlob(0) { blob in
                let header = try GeoPackageBlobHeader(blob)
                return header.isEmpty ? nil : try GeoPackageGeometryCodec.decode(blob)
            }
        } catch let error as GeoPackageGeometryError {
            throw GeoPackageError(path: path, "table '\(table)', fid \(fid): \(error.description)")
        }
    }

    /// The import record, in import order; empty for a GeoPackage that travel411 did not write.
    public func sources() throws -> [SourceRecord] {
        guard try database.tableExists("travel411_sources") else { return [] }
        let columns = SourceRecord.columns.map { GeoPackageSchema.quoted($0.name) }.joined(separator: ", ")
        return try database.query("SELECT \(columns) FROM travel411_sources ORDER BY id").compactMap(SourceRecord.init(row:))
    }

    /// travel411_metadata as a dictionary (schema_version, tool_version, build_date, …).
    public func metadata() throws -> [String: String] {
        guard try database.tableExists("travel411_metadata") else { return [:] }
        var entries: [String: String] = [:]
        for row in try database.query("SELECT key, value FROM travel411_metadata") {
            if let key = row.first?.stringValue { entries[key] = row.last?.stringValue ?? "" }
        }
        return entries
    }

    private func featureTable(_ table: String) throws -> FeatureTable {
        if let prepared = tables[table] { return prepared }
        let registered = try database.query(
            "SELECT column_name FROM gpkg_geometry_columns WHERE table_name = ?", [.text(table)])
        guard let geometryColumn = registered.first?.first?.stringValue else {
            throw GeoPackageError(path: path, "no feature table named '\(table)'")
        }
        let rtreeTable = "rtree_\(table)_\(geometryColumn)"
        let hasIndex = try database.tableExists(rtreeTable)
        let primaryKey =
            try database.query("SELECT name FROM pragma_table_info(?) WHERE pk = 1", [.text(table)])
            .first?.first?.stringValue ?? "rowid"
        let (quotedTable, quotedKey, quotedGeometry) = (
            GeoPackageSchema.quoted(table), GeoPackageSchema.quoted(primaryKey), GeoPackageSchema.quoted(geometryColumn)
        )
        let prepared = FeatureTable(
            candidates: try database.prepare(
                hasIndex
                    ? "SELECT id FROM \(GeoPackageSchema.quoted(rtreeTable)) WHERE minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ?"
                    : "SELECT \(quotedKey) FROM \(quotedTable) WHERE \(quotedGeometry) IS NOT NULL"),
            isIndexed: hasIndex,
            geometry: try database.prepare("SELECT \(quotedGeometry) FROM \(quotedTable) WHERE \(quotedKey) = ?"))
        tables[table] = prepared
        return prepared
    }
}
