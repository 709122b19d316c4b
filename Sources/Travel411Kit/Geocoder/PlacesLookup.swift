import Dispatch
import Foundation

/// The lookup structures of a places database, loaded from its travel411 tables.
///
/// `.onDemand` reads what a query needs when it first needs it (one `where`: a few tiles, tens of
/// milliseconds); `.everything` reads all of it up front so that any number of threads can share it
/// (batches). Both answer through the same lookup code.
// @unchecked Sendable: `.everything` reads all levels in init and writes nothing after it (shared by
// batch workers); `.onDemand` fills caches lazily and is used from one thread, as documented above.
final class PlacesLookup: @unchecked Sendable {
    enum Loading { case onDemand, everything }

    /// What the geocoder reports of one polygon, by column of `texts`.
    enum AreaText: Int, CaseIterable { case name, code, administrativeArea, subAdministrativeArea, administrativeAreaCode }

    /// A polygon level: its index, and its polygons' texts (all in memory, or read when answered).
    final class AreaLevel {
        let index: AreaIndex
        /// The country feature each polygon belongs to (admin polygons, time zones), -1 for none; read up
        /// front in both loadings, a few kilobytes.
        let countryFeatures: [Int32]
        /// The first-level area number of each admin polygon (`FirstLevelAreas`), 0 unknown; read up front.
        let firstLevels: [UInt32]
        /// Every polygon's texts, when all were read up front; kept for `texts`' memory.
        private let preloaded: RecordTable?
        private let texts: RecordTableView?
        private var fetched: [Int: RecordTable] = [:]
        private let fetch: ((Int) -> [String?]?)?

        init(
            index: AreaIndex, preloaded: [[String?]]?, countryFeatures: [Int32] = [], firstLevels: [UInt32] = [],
            fetch: ((Int) -> [String?]?)?
        ) throws {
            self.index = index
            self.countryFeatures = countryFeatures
            self.firstLevels = firstLevels
            if let preloaded {
                let table = try RecordTable(
                    storage: BlobStorage(
                        bytes: RecordTable.build(
                            coordinates: nil,
                            fields: preloaded, fieldCount: AreaText.allCases.count)))
                self.preloaded = table
                texts = table.view
            } else {
                self.preloaded = nil
                texts = nil
            }
            self.fetch = fetch
        }

        /// The country feature of a polygon; -1 when it has none.
        @inline(__always) func countryFeature(of feature: Int32) -> Int32 {
            feature >= 0 && Int(feature) < countryFeatures.count ? countryFeatures[Int(feature)] : -1
        }

        /// The first-level area number of an admin polygon; 0 when unknown.
        @inline(__always) func firstLevel(of feature: Int32) -> UInt32 {
            feature >= 0 && Int(feature) < firstLevels.count ? firstLevels[Int(feature)] : 0
        }

        /// The text's UTF-8 bytes, valid while this level lives; empty when absent.
        @inline(__always) func bytes(_ feature: Int, _ text: AreaText) -> UnsafeBufferPointer<UInt8> {
            if let texts { return texts.bytes(feature, text.rawValue) }
            if fetched[feature] == nil, let row = fetch?(feature),
                let table = try? RecordTable(
                    storage: BlobStorage(
                        bytes: RecordTable.build(
                            coordinates: nil, fields: [row], fieldCount: AreaText.allCases.count)))
            {
                fetched[feature] = table
            }
            return fetched[feature]?.view.bytes(0, text.rawValue) ?? UnsafeBufferPointer(start: nil, count: 0)
        }

    }

    final class PointLevel {
        let index: PointIndex
        let records: PagedRecords
        let bounds: BoundingBox
        /// Localities only: catchment candidates and residents per cell (see `LocalityCells`).
        let cells: LocalityCells?
        /// Localities read up front only: their names, which batches print for nearly every row.
        let names: TextColumn?

        init(index: PointIndex, records: PagedRecords, bounds: BoundingBox, cells: LocalityCells?, names: TextColumn? = nil) {
            self.index = index
            self.records = records
            self.bounds = bounds
            self.cells = cells
            self.names = names
        }
    }

    final class LineLevel {
        let index: LineIndex
        let names: PagedRecords

        init(index: LineIndex, names: PagedRecords) {
            self.index = index
            self.names = names
        }
    }

    private let database: SQLiteDatabase
    private let loading: Loading
    /// Indexed by `AreaLevel.ordinal`: an array, not a dictionary, because every lookup reads it six times.
    private var areaLevels: [AreaLevel?] = Array(repeating: nil, count: PlacesSchema.AreaLevel.allCases.count)
    private var points: [PlacesSchema.PointLevel: PointLevel?] = [:]
    private var pointBounds: [PlacesSchema.PointLevel: BoundingBox] = [:]
    private var streets: LineLevel??

    /// With `.everything`, only the levels `needs` asks for are read, several at once.
    init(path: String, loading: Loading, needs: PlacemarkNeeds = .all) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ImportError("\(path): no places database here; build one with `travel411 import`")
        }
        database = try SQLiteDatabase(path: path, mode: .readOnly)
        self.loading = loading
        // A single lookup reads a handful of pages once, and a batch copies every blob out as it reads
        // it: either way a big page cache would only hold second copies, on top of a batch's peak memory.
        let stamp: LookupTablesStamp
        do {
            // The first statement is where a file that is not SQLite at all shows itself.
            try database.execute("PRAGMA cache_size = -256")
            stamp = try LookupTablesStamp.read(from: database)
        } catch let error as SQLiteError {
            throw ImportError("\(path): cannot read it as a places database (\(error.message)); build one with `travel411 import`")
        }
        guard case .version(let version) = stamp else {
            throw ImportError("\(path): not a travel411 places database (no travel411_metadata table); build one with `travel411 import`")
        }
        guard version == PlacesSchema.version else {
            throw OutdatedPlacesDatabaseError(path: path, lookupTablesVersion: version, reading: database)
        }
        for row in try database.query("SELECT level, min_x, min_y, max_x, max_y FROM travel411_point_indexes") {
            guard let name = row[0].stringValue, let level = PlacesSchema.PointLevel(rawValue: name) else { continue }
            if let minX = row[1].doubleValue, let minY = row[2].doubleValue, let maxX = row[3].doubleValue, let maxY = row[4].doubleValue {
                pointBounds[level] = BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
            }
        }
        switch loading {
        case .onDemand:
            for level in PlacesSchema.AreaLevel.allCases {
                areaLevels[Int(level.ordinal)] = try loadArea(level, loading: loading, from: database)
            }
        case .everything:
            try loadEverything(path: path, needs: needs)
        }
    }

    /// What one start-up task of `.everything` reads.
    private enum LoadTask {
        case area(PlacesSchema.AreaLevel), points(PlacesSchema.PointLevel), streets
    }

    private enum Loaded {
        case area(AreaLevel?), points(PointLevel?), streets(LineLevel?)
    }

    /// Every wanted level on a connection of its own, all at once: reading them is a batch's start-up,
    /// and the localities alone take as long as the three area levels a batch usually asks for.
    private func loadEverything(path: String, needs: PlacemarkNeeds) throws {
        var tasks: [LoadTask] = []
        // Biggest first, so that the cores finish together.
        if needs.contains(.localities) { tasks.append(.points(.locality)) } else { points[.locality] = .some(nil) }
        for level in [PlacesSchema.AreaLevel.admin, .timezone, .country, .inlandWater, .ocean, .district, .city, .suburb]
        where needs.contains(Self.need(for: level)) || (level == .timezone && needs.contains(.country))
            // The locality rule looks the admin polygon up where the candidates span first-level areas.
            || (level == .admin && needs.contains(.localities))
        {
            tasks.append(.area(level))
        }
        if needs.contains(.streets) {
            tasks += [.points(.postcode), .points(.address), .streets]
        } else {
            points[.postcode] = .some(nil)
            points[.address] = .some(nil)
            streets = .some(nil)
        }
        var results = [Result<Loaded, Error>](repeating: .success(.streets(nil)), count: tasks.count)
        let loads = tasks
        results.withUnsafeMutableBufferPointer { results in
            let results = DisjointSlots(results)
            DispatchQueue.concurrentPerform(iterations: loads.count) { i in
                results[i] = Result {
                    let connection = try SQLiteDatabase(path: path, mode: .readOnly)
                    try connection.execute("PRAGMA cache_size = -256")
                    switch loads[i] {
                    case .area(let level): return .area(try loadArea(level, loading: .everything, from: connection))
                    case .points(let level): return .points(try loadPointLevel(level, from: connection))
                    case .streets: return .streets(try loadStreetLevel(from: connection))
                    }
                }
            }
        }
        for (task, result) in zip(tasks, results) {
            switch (task, try result.get()) {
            case (.area(let level), .area(let loaded)): areaLevels[Int(level.ordinal)] = loaded
            case (.points(let level), .points(let loaded)): points[level] = .some(loaded)
            case (.streets, .streets(let loaded)): streets = .some(loaded)
            default: break
            }
        }
    }

    /// Which need reads an area level.
    /// (The time zones are read for `.country` too, though not looked up for every point: a point outside
    /// every country polygon takes the country of the territorial waters it is in.)
    static func need(for level: PlacesSchema.AreaLevel) -> PlacemarkNeeds {
        PlacesSchema.AreaLevel.need(ordinal: Int(level.ordinal))
    }

    private func loadArea(_ level: PlacesSchema.AreaLevel, loading: Loading, from database: SQLiteDatabase) throws -> AreaLevel? {
        guard try !database.query("SELECT 1 FROM travel411_areas WHERE level = ? LIMIT 1", [.text(level.rawValue)]).isEmpty else {
            return nil
        }
        let attributesSQL =
            "SELECT name, code, administrative_area, sub_administrative_area, administrative_area_code FROM travel411_areas WHERE level = ?"
        func attributes(_ row: [SQLValue]) -> [String?] { row.map(\.stringValue) }
        let index: AreaIndex
        switch loading {
        case .everything:
            var grid = [UInt32](repeating: AreaIndex.ref(.empty, 0), count: AreaIndex.columns * AreaIndex.rows)
            let keys: [SQLValue] = [.integer(level.tileKey(0)), .integer(level.tileKey(grid.count - 1))]
            let size = try database.query(
                "SELECT count(blob), coalesce(sum(length(blob)), 0) FROM travel411_area_tiles WHERE key BETWEEN ? AND ?", keys
            ).first
            let arena = TileArena(capacity: Int(size?[1].int64Value ?? 0) + Int(size?[0].int64Value ?? 0) * TileArena.alignment)
            let statement = try database.prepare("SELECT key, reference, blob FROM travel411_area_tiles WHERE key BETWEEN ? AND ?")
            try statement.bind(keys)
            while try statement.step() {
                let tile = Int(statement.int64(0) - level.tileKey(0))
                guard grid.indices.contains(tile) else { continue }
                grid[tile] = UInt32(truncatingIfNeeded: statement.int64(1))
                if !statement.isNull(2) { try statement.withBlob(2) { try arena.append(tile: tile, bytes: $0) } }
            }
            index = try AreaIndex(grid: grid, arena: arena)
        case .onDemand:
            let statement = try database.prepare("SELECT reference, blob IS NOT NULL FROM travel411_area_tiles WHERE key = ?")
            index = AreaIndex { tile in
                defer { statement.reset() }
                let key = level.tileKey(tile)
                try statement.bind(.integer(key), at: 1)
                guard try statement.step() else { return (AreaIndex.ref(.empty, 0), nil) }
                let blob = statement.int(1) != 0 ? database.blobStorage(table: "travel411_area_tiles", column: "blob", rowID: key) : nil
                return (UInt32(truncatingIfNeeded: statement.int64(0)), blob)
            }
        }
        var countryFeatures: [Int32] = []
        var firstLevels: [UInt32] = []
        if level == .admin || level == .timezone {
            let rows = try database.query(
                "SELECT feature, country_feature, first_level_area FROM travel411_areas WHERE level = ? ORDER BY feature",
                [.text(level.rawValue)])
            countryFeatures = [Int32](repeating: -1, count: rows.count)
            firstLevels = [UInt32](repeating: 0, count: rows.count)
            for row in rows {
                guard let f = row[0].int64Value, f >= 0, Int(f) < rows.count else { continue }
                if let country = row[1].int64Value { countryFeatures[Int(f)] = Int32(country) }
                if let area = row[2].int64Value, let number = UInt32(exactly: area) { firstLevels[Int(f)] = number }
            }
        }
        switch loading {
        case .everything:
            let rows = try database.query(attributesSQL + " ORDER BY feature", [.text(level.rawValue)])
            return try AreaLevel(
                index: index, preloaded: rows.map(attributes), countryFeatures: countryFeatures, firstLevels: firstLevels, fetch: nil)
        case .onDemand:
            let statement = try database.prepare(attributesSQL + " AND feature = ?")
            return try AreaLevel(index: index, preloaded: nil, countryFeatures: countryFeatures, firstLevels: firstLevels) { feature in
                defer { statement.reset() }
                guard (try? statement.bind([.text(level.rawValue), .integer(Int64(feature))])) != nil,
                    (try? statement.step()) == true
                else { return nil }
                return attributes(statement.row())
            }
        }
    }

    /// Pages of one kind and level: all read now (`.everything`) or each when first touched.
    private func pages(_ kind: PlacesSchema.PageKind, level: Int64, count: Int, from database: SQLiteDatabase) throws -> PagedBlobs {
        switch loading {
        case .everything:
            var blobs = [BlobStorage?](repeating: nil, count: count)
            let statement = try database.prepare("SELECT key, blob FROM travel411_pages WHERE key BETWEEN ? AND ?")
            try statement.bind([.integer(kind.key(level: level, page: 0)), .integer(kind.key(level: level, page: count - 1))])
            while try statement.step() {
                let number = Int(statement.int64(0) - kind.key(level: level, page: 0))
                if number >= 0, number < count { blobs[number] = statement.withBlob(1) { BlobStorage(copying: $0) } }
            }
            return PagedBlobs(preloaded: blobs)
        case .onDemand:
            return PagedBlobs(count: count) { number in
                database.blobStorage(table: "travel411_pages", column: "blob", rowID: kind.key(level: level, page: number))
            }
        }
    }

    private func records(_ kind: PlacesSchema.PageKind, level: Int64, count: Int, from database: SQLiteDatabase) throws -> PagedRecords {
        let blobs = try pages(kind, level: level, count: count, from: database)
        return PagedRecords(pages: blobs, preloadedCount: loading == .everything ? count : nil)
    }

    @inline(__always) func area(_ level: PlacesSchema.AreaLevel) -> AreaLevel? { areaLevels[Int(level.ordinal)] }

    /// Whether a point level's bounds, widened by `metres`, may hold a point near `coordinate`.
    @inline(__always) static func mayHold(_ bounds: BoundingBox, _ coordinate: Coordinate, within metres: Double) -> Bool {
        bounds.isEmpty || BoundingBox(around: coordinate, metres: metres).intersects(bounds)
    }

    /// A point level, loaded on first use; nil when the database has none. Cheap to ask for a point
    /// outside the level's bounds, which never loads it.
    func pointLevel(_ level: PlacesSchema.PointLevel, near coordinate: Coordinate? = nil, within metres: Double = 0) -> PointLevel? {
        if let coordinate, let bounds = pointBounds[level], !Self.mayHold(bounds, coordinate, within: metres) { return nil }
        if let loaded = points[level] { return loaded }
        let loaded = try? loadPointLevel(level, from: database)
        points[level] = loaded
        return loaded
    }

    private func loadPointLevel(_ level: PlacesSchema.PointLevel, from database: SQLiteDatabase) throws -> PointLevel? {
        let statement = try database.prepare("SELECT tree, record_pages FROM travel411_point_indexes WHERE level = ?")
        try statement.bind(.text(level.rawValue), at: 1)
        guard try statement.step() else { return nil }
        let top = statement.withBlob(0) { BlobStorage(copying: $0) }
        let recordPages = statement.int(1)
        // Heap numbers of pages stay below twice the slot count of the top blob's tree.
        let slotLimit = 2 * Int(top.u32(at: 0)) + 2
        let records = try records(.pointRecords, level: level.ordinal, count: recordPages, from: database)
        let isLocality = level == .locality
        return PointLevel(
            index: try PointIndex(topBlob: top, pages: try pages(.pointNodes, level: level.ordinal, count: slotLimit, from: database)),
            records: records,
            bounds: pointBounds[level] ?? .empty,
            // The groups (620 KB) only for batches: a single lookup asks the k-d tree, reading a few pages.
            cells: isLocality
                ? LocalityCells(
                    pages: try pages(.localityCells, level: 0, count: 360 * 180, from: database),
                    groups: loading == .everything ? try pages(.localityGroups, level: 0, count: 1, from: database)[0] : nil) : nil,
            names: isLocality && loading == .everything
                ? TextColumn(field: PlacesSchema.LocalityField.name.rawValue, of: records) : nil)
    }

    func streetLevel() -> LineLevel? {
        if let loaded = streets { return loaded }
        let loaded = try? loadStreetLevel(from: database)
        streets = .some(loaded)
        return loaded
    }

    private func loadStreetLevel(from database: SQLiteDatabase) throws -> LineLevel? {
        let statement = try database.prepare("SELECT lines, record_pages FROM travel411_line_indexes WHERE level = 'thoroughfare'")
        guard try statement.step() else { return nil }
        return LineLevel(
            index: try LineIndex(storage: statement.withBlob(0) { BlobStorage(copying: $0) }),
            names: try records(.streetRecords, level: 0, count: statement.int(1), from: database))
    }
}
