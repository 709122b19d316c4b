import Foundation

/// The lookup structures of a places database, loaded from its travel411 tables.
///
/// `.onDemand` reads what a query needs when it first needs it (one `where`: a few tiles, tens of
/// milliseconds); `.everything` reads all of it up front so that any number of threads can share it
/// (batches). Both answer through the same lookup code.
final class PlacesLookup: @unchecked Sendable {
    enum Loading { case onDemand, everything }

    struct AreaLevel {
        let index: AreaIndex
        let names: [String?]
        let codes: [String?]
        let countryCodes: [String?]
        let administrativeAreas: [String?]
        let subAdministrativeAreas: [String?]
    }

    struct PointLevel {
        let index: PointIndex
        let records: RecordTable
        let bounds: BoundingBox
    }

    struct LineLevel {
        let index: LineIndex
        let names: RecordTable
    }

    private let database: SQLiteDatabase
    private(set) var areas: [PlacesSchema.AreaLevel: AreaLevel] = [:]
    private var points: [PlacesSchema.PointLevel: PointLevel?] = [:]
    private var pointBounds: [PlacesSchema.PointLevel: BoundingBox] = [:]
    private var streets: LineLevel??

    init(path: String, loading: Loading) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ImportError("\(path): no places database here; build one with `travel411 import`")
        }
        database = try SQLiteDatabase(path: path, mode: .readOnly)
        let version = try? database.query("SELECT value FROM travel411_metadata WHERE key = 'lookup_schema_version'").first?.first?.stringValue
        guard version == PlacesSchema.version else {
            throw ImportError("\(path): this places database was built by another version of travel411 (lookup tables \(version ?? "missing")); rebuild it with `travel411 import`")
        }
        for level in PlacesSchema.AreaLevel.allCases {
            areas[level] = try loadArea(level, loading: loading)
        }
        for row in try database.query("SELECT level, min_x, min_y, max_x, max_y FROM travel411_point_indexes") {
            guard let name = row[0].stringValue, let level = PlacesSchema.PointLevel(rawValue: name) else { continue }
            if let minX = row[1].doubleValue, let minY = row[2].doubleValue, let maxX = row[3].doubleValue, let maxY = row[4].doubleValue {
                pointBounds[level] = BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
            }
        }
        if loading == .everything {
            for level in PlacesSchema.PointLevel.allCases { _ = pointLevel(level) }
            _ = streetLevel()
        }
    }

    private func loadArea(_ level: PlacesSchema.AreaLevel, loading: Loading) throws -> AreaLevel? {
        guard let grid = try blob("SELECT grid FROM travel411_area_grids WHERE level = ?", [.text(level.rawValue)]) else { return nil }
        var tiles: [Int: BlobStorage] = [:]
        var loader: ((Int) throws -> BlobStorage?)? = nil
        switch loading {
        case .everything:
            let statement = try database.prepare("SELECT key, blob FROM travel411_area_tiles WHERE key BETWEEN ? AND ?")
            try statement.bind([.integer(level.tileKey(0)), .integer(level.tileKey(99_999))])
            while try statement.step() {
                tiles[Int(statement.int64(0) - level.tileKey(0))] = statement.withBlob(1) { BlobStorage(copying: $0) }
            }
        case .onDemand:
            let statement = try database.prepare("SELECT blob FROM travel411_area_tiles WHERE key = ?")
            loader = { tile in
                defer { statement.reset() }
                try statement.bind(.integer(level.tileKey(tile)), at: 1)
                return try statement.step() ? statement.withBlob(0) { BlobStorage(copying: $0) } : nil
            }
        }
        let rows = try database.query("""
            SELECT name, code, country_code, administrative_area, sub_administrative_area
            FROM travel411_areas WHERE level = ? ORDER BY feature
            """, [.text(level.rawValue)])
        return AreaLevel(
            index: try AreaIndex(grid: grid, preloadedTiles: tiles, tileLoader: loader),
            names: rows.map { $0[0].stringValue }, codes: rows.map { $0[1].stringValue },
            countryCodes: rows.map { $0[2].stringValue }, administrativeAreas: rows.map { $0[3].stringValue },
            subAdministrativeAreas: rows.map { $0[4].stringValue })
    }

    /// A point level, loaded on first use; nil when the database has none. Cheap to ask for a point
    /// outside the level's bounds, which never loads it.
    func pointLevel(_ level: PlacesSchema.PointLevel, near coordinate: Coordinate? = nil, within metres: Double = 0) -> PointLevel? {
        if let coordinate, let bounds = pointBounds[level] {
            let dy = metres / 111_000, dx = dy / max(cos(coordinate.latitude * .pi / 180), 0.01)
            if coordinate.longitude + dx < bounds.minX || coordinate.longitude - dx > bounds.maxX
                || coordinate.latitude + dy < bounds.minY || coordinate.latitude - dy > bounds.maxY { return nil }
        }
        if let loaded = points[level] { return loaded }
        let loaded: PointLevel? = try? {
            let statement = try database.prepare("SELECT tree, records FROM travel411_point_indexes WHERE level = ?")
            try statement.bind(.text(level.rawValue), at: 1)
            guard try statement.step() else { return nil }
            return PointLevel(
                index: try PointIndex(storage: statement.withBlob(0) { BlobStorage(copying: $0) }),
                records: try RecordTable(storage: statement.withBlob(1) { BlobStorage(copying: $0) }),
                bounds: pointBounds[level] ?? .empty)
        }()
        points[level] = loaded
        return loaded
    }

    func streetLevel() -> LineLevel? {
        if let loaded = streets { return loaded }
        let loaded: LineLevel? = try? {
            let statement = try database.prepare("SELECT lines, records FROM travel411_line_indexes WHERE level = 'thoroughfare'")
            guard try statement.step() else { return nil }
            return LineLevel(
                index: try LineIndex(storage: statement.withBlob(0) { BlobStorage(copying: $0) }),
                names: try RecordTable(storage: statement.withBlob(1) { BlobStorage(copying: $0) }))
        }()
        streets = .some(loaded)
        return loaded
    }

    private func blob(_ sql: String, _ values: [SQLValue]) throws -> BlobStorage? {
        let statement = try database.prepare(sql)
        try statement.bind(values)
        return try statement.step() ? statement.withBlob(0) { BlobStorage(copying: $0) } : nil
    }
}
