import Dispatch
import Foundation
import Synchronization
import Travel411Core
import Travel411Store

/// The lookup structures of a places database, loaded from its travel411 tables.
///
/// `.onDemand` reads what a query needs when it first needs it (one `where`: a few tiles, tens of
/// milliseconds); `.everything` reads the area levels and the localities up front (batches), and the
/// streets, addresses and postcodes by tile as they are touched, so that a batch starts in the same
/// time whatever their number. Both answer through the same lookup code, and either may be shared by
/// any number of threads: what is read late is kept in `LazySlots`, written once per page.
package final class PlacesLookup: Sendable {
    package enum Loading: Sendable { case onDemand, everything }

    /// What the geocoder reports of one polygon, by column of `texts`.
    /// `postcode`, `municipality` (a number), `placeType` and `centre` (`x y`) are OpenStreetMap municipalities'
    /// and suburbs' only; `taggedPostcode`, the postcode an extract's area carries as a tag (`addr:postcode`,
    /// `postal_code`), which a place node inside inherits (`ReverseGeocoder.taggedPostcodeArea`), also states' and
    /// counties'.
    package enum AreaText: Int, CaseIterable {
        case name, code, administrativeArea, subAdministrativeArea, administrativeAreaCode, postcode, municipality, placeType,
            centre, taggedPostcode
    }

    final class PointLevel: Sendable {
        let index: NearestPoints
        let records: PagedRecords
        let bounds: BoundingBox
        /// Localities only: catchment candidates and residents per cell (see `LocalityCells`).
        let cells: LocalityCells?
        /// Localities read up front only: their names, which batches print for nearly every row.
        let names: TextColumn?
        /// Localities read up front for the nearest place's distance only: their latitudes' sines and cosines.
        let latitudes: PlaceLatitudeTrigonometry?

        init(
            index: NearestPoints, records: PagedRecords, bounds: BoundingBox, cells: LocalityCells?, names: TextColumn? = nil,
            latitudes: PlaceLatitudeTrigonometry? = nil
        ) {
            self.index = index
            self.records = records
            self.bounds = bounds
            self.cells = cells
            self.names = names
            self.latitudes = latitudes
        }
    }

    package final class LineLevel: Sendable {
        let index: StreetTiles
        let names: PagedRecords

        package init(index: StreetTiles, names: PagedRecords) {
            self.index = index
            self.names = names
        }
    }

    /// A level that was looked for, found or not: a cache must remember both.
    final class Loaded<Level: Sendable>: Sendable {
        let level: Level?
        init(_ level: Level?) { self.level = level }
    }

    let reader: SharedDatabaseReader
    private let loading: Loading
    /// Indexed by `AreaLevel.ordinal`: an array, not a dictionary, because every lookup reads it six times.
    private let areaLevels: [AreaLevel?]
    /// By `PointLevel.ordinal`, loaded on first use.
    private let points: LazySlots<Loaded<PointLevel>>
    private let pointBounds: [PlacesSchema.PointLevel: BoundingBox]
    private let streets: LazySlots<Loaded<LineLevel>>
    private let streetPostcodeRecords = LazySlots<Loaded<PagedRecords>>(count: 1)
    private let streetAddressRecords = LazySlots<Loaded<PagedRecords>>(count: 1)
    /// The objects' covers (slot 0) and the streets' (slot 1).
    private let coverTiles = LazySlots<Loaded<StreetTiles>>(count: 2)
    /// The suburb level's node areas (slot 0) and the city level's (slot 1).
    private let suburbNodes = LazySlots<Loaded<PlaceNodeSearch>>(count: 2)
    private let neighbourhoods = LazySlots<Loaded<NeighbourhoodNodeTiles>>(count: 1)
    private let finePlaces = LazySlots<Loaded<FinePlaceNodeTiles>>(count: 1)
    private let postalPolygonLayers = LazySlots<Loaded<PostalPolygons>>(count: 1)
    private let licences = LazySlots<Loaded<DataLicence>>(count: 1)

    /// With `.everything`, only the levels `needs` asks for are read, several at once.
    package init(path: String, loading: Loading, needs: PlacemarkNeeds = .all) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ImportError("\(path): no places database here; build one with `travel411 import`")
        }
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
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
        var pointBounds: [PlacesSchema.PointLevel: BoundingBox] = [:]
        for row in try database.query("SELECT level, min_x, min_y, max_x, max_y FROM travel411_point_indexes") {
            guard let name = row[0].stringValue, let level = PlacesSchema.PointLevel(rawValue: name) else { continue }
            if let minX = row[1].doubleValue, let minY = row[2].doubleValue, let maxX = row[3].doubleValue, let maxY = row[4].doubleValue {
                pointBounds[level] = BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
            }
        }
        self.pointBounds = pointBounds
        let reader = try SharedDatabaseReader(path: path)
        let points = LazySlots<Loaded<PointLevel>>(count: PlacesSchema.PointLevel.allCases.count)
        let streets = LazySlots<Loaded<LineLevel>>(count: 3)
        switch loading {
        case .onDemand:
            areaLevels = try PlacesSchema.AreaLevel.allCases.map { try Self.loadArea($0, loading: loading, from: reader) }
        case .everything:
            areaLevels = try Self.loadEverything(
                path: path, needs: needs, pointBounds: pointBounds, points: points, streets: streets)
        }
        self.reader = reader
        self.points = points
        self.streets = streets
    }

    /// What one start-up task of `.everything` reads.
    private enum LoadTask {
        case area(PlacesSchema.AreaLevel), localities
    }

    private enum LoadedTask {
        case area(AreaLevel?), localities(PointLevel?)
    }

    /// Every wanted area level and the localities on a connection of their own, all at once: reading them
    /// is a batch's start-up, and the localities alone take as long as the three area levels a batch
    /// usually asks for. Streets, addresses and postcodes are read by tile as the batch touches them.
    private static func loadEverything(
        path: String, needs: PlacemarkNeeds, pointBounds: [PlacesSchema.PointLevel: BoundingBox],
        points: LazySlots<Loaded<PointLevel>>, streets: LazySlots<Loaded<LineLevel>>
    ) throws -> [AreaLevel?] {
        var tasks: [LoadTask] = []
        // Biggest first, so that the cores finish together.
        if needs.contains(.localities) { tasks.append(.localities) } else { points.fill(0, with: Loaded(nil)) }
        for level in [PlacesSchema.AreaLevel.admin, .timezone, .country, .inlandWater, .ocean, .district, .city, .suburb]
        where needs.contains(Self.need(for: level)) || (level == .timezone && needs.contains(.country))
            // The locality rule looks the admin polygon up where the candidates span first-level areas.
            || (level == .admin && needs.contains(.localities))
        {
            tasks.append(.area(level))
        }
        if !needs.contains(.streets) {
            points.fill(Int(PlacesSchema.PointLevel.postcode.ordinal), with: Loaded(nil))
            points.fill(Int(PlacesSchema.PointLevel.address.ordinal), with: Loaded(nil))
            streets.fill(0, with: Loaded(nil))
            streets.fill(1, with: Loaded(nil))
            streets.fill(2, with: Loaded(nil))
        }
        var results = [Result<LoadedTask, any Error>](repeating: .success(.localities(nil)), count: tasks.count)
        let loads = tasks, keep = needs.contains(.nearestLocality)
        // A connection a thread, not a task: opening one reads the database's whole schema.
        let connections = Mutex<[SharedDatabaseReader]>([])
        results.withUnsafeMutableBufferPointer { results in
            let results = DisjointSlots(results)
            DispatchQueue.concurrentPerform(iterations: loads.count) { i in
                results[i] = Result {
                    let connection = try connections.withLock { $0.popLast() } ?? SharedDatabaseReader(path: path, mapped: false)
                    defer { connections.withLock { $0.append(connection) } }
                    switch loads[i] {
                    case .area(let level): return .area(try Self.loadArea(level, loading: .everything, from: connection))
                    case .localities:
                        let level = try Self.loadPointLevel(
                            .locality, loading: .everything, bounds: pointBounds, from: connection, keepingLatitudes: keep)
                        return .localities(level)
                    }
                }
            }
        }
        var areaLevels = [AreaLevel?](repeating: nil, count: PlacesSchema.AreaLevel.allCases.count)
        for (task, result) in zip(tasks, results) {
            switch (task, try result.get()) {
            case (.area(let level), .area(let loaded)): areaLevels[Int(level.ordinal)] = loaded
            case (.localities, .localities(let loaded)): points.fill(0, with: Loaded(loaded))
            default: break
            }
        }
        return areaLevels
    }

    /// Which need reads an area level.
    /// (The time zones are read for `.country` too, though not looked up for every point: a point outside
    /// every country polygon takes the country of the territorial waters it is in.)
    static func need(for level: PlacesSchema.AreaLevel) -> PlacemarkNeeds {
        PlacesSchema.AreaLevel.need(ordinal: Int(level.ordinal))
    }

    /// The number of a level's features, numbered from 0 without gaps (`LookupTablesWriter.storeAreaFeatures`): the primary key's last
    /// entry answers in a few pages, where `count(*)` walked the whole level's index (on 2,400 copies of
    /// Liechtenstein, 400 of a single lookup's 590 page reads).
    private static func featureCount(of level: PlacesSchema.AreaLevel, from reader: SharedDatabaseReader) throws -> Int64? {
        try reader.query("SELECT coalesce(max(feature) + 1, 0) FROM travel411_areas WHERE level = ?", [.text(level.rawValue)])
            .first?.first?.int64Value
    }

    private static func loadArea(
        _ level: PlacesSchema.AreaLevel, loading: Loading, from reader: SharedDatabaseReader
    ) throws -> AreaLevel? {
        guard
            let featureCount = try Self.featureCount(of: level, from: reader), featureCount > 0
        else {
            return nil
        }
        let attributesSQL =
            """
            SELECT name, code, administrative_area, sub_administrative_area, administrative_area_code, postcode, municipality,
                   place_type, centre, tagged_postcode
            FROM travel411_areas WHERE level = ?
            """
        @Sendable func attributes(_ row: [SQLValue]) -> [String?] { row.map(\.stringValue) }
        let index: AreaIndex
        switch loading {
        case .everything:
            index = try reader.withDatabase { try Self.allTiles(level, from: $0) }
        case .onDemand:
            index = AreaIndex { tile in
                let key = level.tileKey(tile)
                guard
                    let row = try reader.query(
                        "SELECT reference, blob IS NOT NULL FROM travel411_area_tiles WHERE key = ?", [.integer(key)]
                    )
                    .first, let reference = row[0].int64Value
                else { return (AreaIndex.ref(.empty, 0), nil) }
                let blob =
                    row[1].int64Value != 0
                    ? reader.page(table: "travel411_area_tiles", rowID: key, name: "\(level.rawValue) tile \(tile)") : nil
                return (UInt32(truncatingIfNeeded: reference), blob)
            }
        }
        var countryFeatures: [Int32] = []
        var firstLevels: [UInt32] = []
        let linked = level == .admin || level == .timezone || level == .city || level == .suburb
        // The time zones' countries are read whole in both loadings: `soleTimeZones` reads every one.
        let linksUpFront = linked && (loading == .everything || level == .timezone)
        if linksUpFront {
            let rows = try reader.query(
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
            let texts = try reader.withDatabase { try Self.areaTexts(level, sql: attributesSQL + " ORDER BY feature", from: $0) }
            return try AreaLevel(index: index, preloaded: texts, countryFeatures: countryFeatures, firstLevels: firstLevels, fetch: nil)
        case .onDemand:
            return try AreaLevel(
                index: index, preloaded: nil, featureCount: Int(featureCount), countryFeatures: countryFeatures,
                firstLevels: firstLevels, fetchLinks: linked && !linksUpFront ? Self.linksFetch(level, from: reader) : nil
            ) { feature in
                (try? reader.query(attributesSQL + " AND feature = ?", [.text(level.rawValue), .integer(Int64(feature))]))?.first
                    .map(attributes)
            }
        }
    }

    /// One polygon's country feature and first-level area, read when first asked for (`.onDemand`).
    private static func linksFetch(
        _ level: PlacesSchema.AreaLevel, from reader: SharedDatabaseReader
    ) -> @Sendable (Int) -> AreaLevel.FeatureLinks? {
        { feature in
            guard
                let row = try? reader.query(
                    "SELECT country_feature, first_level_area FROM travel411_areas WHERE level = ? AND feature = ?",
                    [.text(level.rawValue), .integer(Int64(feature))]
                ).first
            else { return AreaLevel.FeatureLinks(country: -1, firstLevel: 0) }
            let country = row[0].int64Value.flatMap { Int32(exactly: $0) } ?? -1
            let firstLevel = row[1].int64Value.flatMap { UInt32(exactly: $0) } ?? 0
            return AreaLevel.FeatureLinks(country: country, firstLevel: firstLevel)
        }
    }

    /// Every tile of an area level, inflated into one arena (a batch's start-up).
    private static func allTiles(_ level: PlacesSchema.AreaLevel, from database: SQLiteDatabase) throws -> AreaIndex {
        var grid = [UInt32](repeating: AreaIndex.ref(.empty, 0), count: AreaIndex.columns * AreaIndex.rows)
        let keys: [SQLValue] = [.integer(level.tileKey(0)), .integer(level.tileKey(grid.count - 1))]
        // Grown as the tiles come: a first pass for their sizes stepped through every row twice.
        let arena = TileArena(capacity: 1 << 20)
        let statement = try database.prepare("SELECT key, reference, blob FROM travel411_area_tiles WHERE key BETWEEN ? AND ?")
        try statement.bind(keys)
        while try statement.step() {
            let tile = Int(statement.int64(0) - level.tileKey(0))
            guard grid.indices.contains(tile) else { continue }
            grid[tile] = UInt32(truncatingIfNeeded: statement.int64(1))
            guard !statement.isNull(2) else { continue }
            try statement.withBlob(2) { try PageCompression.page($0) { try arena.append(tile: tile, count: $0, fill: $1) } }
        }
        return try AreaIndex(grid: grid, arena: arena)
    }

    /// Pages of one kind and level: all read now (`preloaded`) or each when first touched.
    private static func pages(
        _ kind: PlacesSchema.PageKind, level: Int64, count: Int, preloaded: Bool, from reader: SharedDatabaseReader
    ) throws -> PagedBlobs {
        guard preloaded else {
            return PagedBlobs(count: count) { number in
                reader.page(table: "travel411_pages", rowID: kind.key(level: level, page: number), name: "\(kind) page \(number)")
            }
        }
        let blobs = try reader.withDatabase { database in
            var blobs = [BlobStorage?](repeating: nil, count: count)
            let arena = PageArena()
            let statement = try database.prepare("SELECT key, blob FROM travel411_pages WHERE key BETWEEN ? AND ?")
            try statement.bind([.integer(kind.key(level: level, page: 0)), .integer(kind.key(level: level, page: count - 1))])
            while try statement.step() {
                let number = Int(statement.int64(0) - kind.key(level: level, page: 0))
                guard number >= 0, number < count else { continue }
                do { blobs[number] = try statement.withBlob(1) { try PageCompression.page($0, in: arena) } } catch {
                    reader.noteDamage("\(IndexFormatError.damage(in: error)) of \(kind) page \(number)")
                }
            }
            return blobs
        }
        return PagedBlobs(preloaded: blobs)
    }

    private static func records(
        _ kind: PlacesSchema.PageKind, level: Int64, count: Int, preloaded: Bool, from reader: SharedDatabaseReader
    ) throws -> PagedRecords {
        let blobs = try pages(kind, level: level, count: count, preloaded: preloaded, from: reader)
        return PagedRecords(pages: blobs, preloadedCount: preloaded ? count : nil)
    }

    @inline(__always) package func area(_ level: PlacesSchema.AreaLevel) -> AreaLevel? { areaLevels[Int(level.ordinal)] }

    /// Whether a point level's bounds, widened by `metres`, may hold a point near `coordinate`.
    @inline(__always) static func mayHold(_ bounds: BoundingBox, _ coordinate: Coordinate, within metres: Double) -> Bool {
        if bounds.isEmpty { return true }
        // The box's latitudes first, as `BoundingBox(around:metres:)` computes them: most points of a batch lie
        // north or south of a level of a few countries' addresses, and need no cosine for its longitudes.
        let dy = metres / (GreatCircle.earthRadiusMetres * .pi / 180)
        if coordinate.latitude - dy > bounds.maxY || coordinate.latitude + dy < bounds.minY { return false }
        return BoundingBox(around: coordinate, metres: metres).intersects(bounds)
    }

    /// A point level, loaded on first use; nil when the database has none. Cheap to ask for a point
    /// outside the level's bounds, which never loads it.
    func pointLevel(_ level: PlacesSchema.PointLevel, near coordinate: Coordinate? = nil, within metres: Double = 0) -> PointLevel? {
        if let coordinate, let bounds = pointBounds[level], !Self.mayHold(bounds, coordinate, within: metres) { return nil }
        let pointBounds = self.pointBounds
        // Only the localities are read whole, for batches: the addresses and postcodes of a country are
        // millions of points, read by tile as a batch touches them.
        let preload = loading == .everything && level == .locality
        return loadedOnce(points, at: Int(level.ordinal)) { reader in
            try Self.loadPointLevel(level, loading: preload ? .everything : .onDemand, bounds: pointBounds, from: reader)
        }
    }

    private static func loadPointLevel(
        _ level: PlacesSchema.PointLevel, loading: Loading, bounds: [PlacesSchema.PointLevel: BoundingBox],
        from reader: SharedDatabaseReader, keepingLatitudes: Bool = false
    ) throws -> PointLevel? {
        guard
            let row = try reader.query(
                "SELECT tree, record_pages FROM travel411_point_indexes WHERE level = ?", [.text(level.rawValue)]
            ).first, case .blob(let tree) = row[0], let recordPages = row[1].int64Value.map(Int.init)
        else { return nil }
        guard level == .locality else {
            let ordinal = level.ordinal
            let tiles = try PointTiles(directory: BlobStorage(bytes: tree), name: level.rawValue, onDamage: { reader.noteDamage($0) }) {
                number in
                reader.page(
                    table: "travel411_pages", rowID: PlacesSchema.PageKind.pointTiles.key(level: ordinal, page: number),
                    name: "\(level.rawValue) tile \(number)")
            }
            return PointLevel(
                index: .tiles(tiles),
                records: try records(.pointRecords, level: ordinal, count: recordPages, preloaded: false, from: reader),
                bounds: bounds[level] ?? .empty, cells: nil)
        }
        let top = BlobStorage(bytes: tree)
        guard top.count >= 4 else { throw IndexFormatError.malformed("point index header") }
        // Heap numbers of pages stay below twice the slot count of the top blob's tree.
        let slotLimit = 2 * Int(top.u32(at: 0)) + 2
        let preloaded = loading == .everything
        let records = try records(.pointRecords, level: level.ordinal, count: recordPages, preloaded: preloaded, from: reader)
        let isLocality = level == .locality
        let pointIndex = try PointIndex(
            topBlob: top, pages: try pages(.pointNodes, level: level.ordinal, count: slotLimit, preloaded: preloaded, from: reader))
        return PointLevel(
            index: .tree(pointIndex),
            records: records,
            bounds: bounds[level] ?? .empty,
            // The groups (620 KB) only for batches: a single lookup asks the k-d tree, reading a few pages.
            cells: isLocality
                ? LocalityCells(
                    pages: try pages(.localityCells, level: 0, count: 360 * 180, preloaded: preloaded, from: reader),
                    groups: preloaded ? try pages(.localityGroups, level: 0, count: 1, preloaded: true, from: reader)[0] : nil,
                    tree: pointIndex) : nil,
            names: isLocality && preloaded
                ? TextColumn(field: PlacesSchema.LocalityField.name.rawValue, of: records) : nil,
            latitudes: isLocality && preloaded && keepingLatitudes ? PlaceLatitudeTrigonometry(count: records.preloadedRecordCount) : nil)
    }

    /// The first damaged structure a lookup met; `ReverseGeocoder.checkIndex` reports it.
    package var damage: String? { reader.firstDamage }

    /// A level read late: one that cannot be read is noted as damage and answers as absent.
    private static func noting<Level>(_ reader: SharedDatabaseReader, _ load: () throws -> Level?) -> Level? {
        do { return try load() } catch {
            reader.noteDamage(IndexFormatError.damage(in: error))
            return nil
        }
    }

    /// The value of `slots` at `slot`, read by `load` the first time it is asked for; nil when the database has
    /// none, or a damaged one (which is noted). Found or not, the answer is remembered.
    private func loadedOnce<Value: Sendable>(
        _ slots: LazySlots<Loaded<Value>>, at slot: Int = 0, _ load: (SharedDatabaseReader) throws -> Value?
    ) -> Value? {
        let reader = self.reader
        return slots.withValue(at: slot, orMake: { Loaded(Self.noting(reader) { try load(reader) }) }, { $0.level }) ?? nil
    }

    func streetLevel() -> LineLevel? { lineLevel(.thoroughfare, slot: 0) }

    /// Whether a polygon of an area level is a piece of Nominatim's country grid (`OSMCountryGridLayer`).
    func isCountryGridPiece(ofArea level: PlacesSchema.AreaLevel, feature: Int) -> Bool {
        let row = try? reader.query(
            """
            SELECT contents.description FROM travel411_areas AS areas JOIN gpkg_contents AS contents
            ON contents.table_name = areas.layer WHERE areas.level = ? AND areas.feature = ?
            """, [.text(level.rawValue), .integer(Int64(feature))]
        ).first
        return row?.first?.stringValue?.hasPrefix(PlacesSchema.countryGridDescription) == true
    }

    /// The suburb-level areas drawn around an extract's place nodes, for Nominatim's answers at zooms 13-15.
    func suburbNodeSearch() -> PlaceNodeSearch? { loadedOnce(suburbNodes) { try Self.loadNodeAreas(.suburb, from: $0) } }

    /// The city-level areas drawn around an extract's town and village nodes, for the municipality of a street's
    /// address (`ReverseGeocoder.townNodeOfStreet`).
    func cityNodeSearch() -> PlaceNodeSearch? { loadedOnce(suburbNodes, at: 1) { try Self.loadNodeAreas(.city, from: $0) } }

    /// Read by tile as the searches touch them (`PlaceNodePages`), by a single lookup and a batch alike: a
    /// search reads the few tiles around its point.
    private static func loadNodeAreas(_ areaLevel: PlacesSchema.AreaLevel, from reader: SharedDatabaseReader) throws -> PlaceNodeSearch {
        let level = areaLevel.ordinal
        let featureCount = try featureCount(of: areaLevel, from: reader) ?? 0
        let featurePages = PlaceNodePages.featurePageCount(featureCount: Int(featureCount))
        let first = PlacesSchema.PageKind.placeNodeFeatures.key(level: level, page: 0)
        let isEmpty = try reader.query(
            "SELECT 1 FROM travel411_pages WHERE key BETWEEN ? AND ? LIMIT 1",
            [.integer(first), .integer(first + Int64(max(featurePages, 1) - 1))]
        ).isEmpty
        return PlaceNodeSearch(
            pages: PlaceNodePages(
                tiles: try pages(.placeNodeTiles, level: level, count: PlaceNodePages.tileCount, preloaded: false, from: reader),
                features: try pages(.placeNodeFeatures, level: level, count: featurePages, preloaded: false, from: reader),
                isEmpty: isEmpty),
            reachRings: areaLevel == .city ? 2 : 1)
    }

    /// The extracts' `place=neighbourhood` nodes, read once at the first answer that names one.
    func neighbourhoodNodes() -> NeighbourhoodNodeTiles? { loadedOnce(neighbourhoods, NeighbourhoodNodeTiles.open) }

    /// The extracts' place nodes finer than the suburbs (`FinePlaceNodes`), read by tile as answers at zooms 14 and 15,
    /// and Nominatim's addresses, ask (`FinePlaceNodeTiles`).
    func finePlaceNodes() -> FinePlaceNodeTiles? { loadedOnce(finePlaces, FinePlaceNodeTiles.open) }

    /// The extracts' postal_code polygons (`PostalPolygons`), whose layers are found at the first place given a postcode.
    func postalPolygons() -> PostalPolygons? { loadedOnce(postalPolygonLayers, PostalPolygons.open) }

    /// The licence of the database's layers, read once.
    func licence() -> DataLicence {
        let reader = self.reader
        return licences.withValue(
            at: 0,
            orMake: {
                let rows = (try? reader.query(DataLicence.layerDescriptionsQuery, [])) ?? []
                return Loaded(DataLicence.of(layerDescriptions: rows.compactMap { $0.first?.stringValue }))
            }, { $0.level ?? .embedded }) ?? .embedded
    }

    /// OpenStreetMap's address points and POIs, by tile (`PlacesSchema.ObjectField`); nil for a database
    /// without an extract.
    func objectLevel() -> LineLevel? { lineLevel(.objects, slot: 1) }

    /// The pieces of the extracts' `addr:interpolation` lines (`PlacesSchema.InterpolationField`); nil without any.
    func interpolationLevel() -> LineLevel? { lineLevel(.interpolations, slot: 2) }

    private func lineLevel(_ index: PlacesSchema.LineIndex, slot: Int) -> LineLevel? {
        loadedOnce(streets, at: slot) { try Self.loadLineLevel(index, from: $0) }
    }

    /// The extents of OpenStreetMap's buildings and areas by the cells they cover (`ObjectCovers`), and of its streets
    /// mapped as areas (pedestrian squares); nil for a database without them.
    func objectCovers() -> StreetTiles? { covers(.objectCovers, grid: .objects, level: 2, slot: 0) }
    func streetCovers() -> StreetTiles? { covers(.streetCovers, grid: .streets, level: 3, slot: 1) }

    private func covers(_ index: PlacesSchema.LineIndex, grid: TileGrid, level: Int64, slot: Int) -> StreetTiles? {
        loadedOnce(coverTiles, at: slot) { reader in
            guard
                case .blob(let directory) = try reader.query(
                    "SELECT lines FROM travel411_line_indexes WHERE level = ?", [.text(index.rawValue)]
                ).first?.first
            else { return nil }
            return try Self.tiles(directory: directory, grid: grid, level: level, from: reader)
        }
    }

    /// The streets' postcodes by street number; nil for a database without OpenStreetMap streets.
    func streetPostcodes() -> PagedRecords? { lineRecords(.streetPostcodes, level: 2, slots: streetPostcodeRecords) }

    /// The streets' addresses by street number (`StreetAddresses`); nil for a database without them.
    func streetAddresses() -> PagedRecords? { lineRecords(.streetAddresses, level: 3, slots: streetAddressRecords) }

    /// The records of a line index that has no tiles of its own, read once into `slots`.
    private func lineRecords(_ index: PlacesSchema.LineIndex, level: Int64, slots: LazySlots<Loaded<PagedRecords>>) -> PagedRecords? {
        loadedOnce(slots) { reader in
            guard
                let row = try reader.query("SELECT record_pages FROM travel411_line_indexes WHERE level = ?", [.text(index.rawValue)])
                    .first,
                let count = row[0].int64Value.map(Int.init)
            else { return nil }
            return try Self.records(.streetRecords, level: level, count: count, preloaded: false, from: reader)
        }
    }

    private static func loadLineLevel(_ index: PlacesSchema.LineIndex, from reader: SharedDatabaseReader) throws -> LineLevel? {
        let level: Int64 = index == .thoroughfare ? 0 : index == .interpolations ? 4 : 1
        guard
            let row = try reader.query(
                "SELECT lines, record_pages FROM travel411_line_indexes WHERE level = ?", [.text(index.rawValue)]
            ).first, case .blob(let directory) = row[0], let recordPages = row[1].int64Value.map(Int.init)
        else { return nil }
        return LineLevel(
            index: try tiles(directory: directory, grid: index == .objects ? .objects : .streets, level: level, from: reader),
            names: try records(.streetRecords, level: level, count: recordPages, preloaded: false, from: reader))
    }

    /// A `StreetTiles` of `directory`, its pages those of `level` (streets 0, objects 1, their covers 2), read when
    /// first needed; a damaged one is noted.
    private static func tiles(directory: [UInt8], grid: TileGrid, level: Int64, from reader: SharedDatabaseReader) throws
        -> StreetTiles
    {
        try StreetTiles(directory: BlobStorage(bytes: directory), grid: grid, onDamage: { reader.noteDamage($0) }) { number in
            reader.page(
                table: "travel411_pages", rowID: PlacesSchema.PageKind.streetTiles.key(level: level, page: number),
                name: "\(level == 0 ? "street" : "object") tile \(number)")
        }
    }
}
