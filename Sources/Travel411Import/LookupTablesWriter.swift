import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Shapefile
import Travel411Store
import Travel411StoreWriters

/// Builds the geocoder's lookup structures from what the import collects, and stores them.
///
/// Each structure is built as soon as the last layer feeding it has been read, and what it was built from
/// is freed then, so that the import's memory grows with the largest level rather than with all of them:
/// an area level's rings go once its tiles are stored, the localities once their indexes are. Some wait
/// for others: the countries for the time zones (`TerritoryAssignment`), the localities for the country
/// and admin polygons they lie in.
final class LookupTablesWriter {

    /// What the rules decided from the data, for the import summary.
    struct Report {
        var territories: [String] = []
        var contradictedLabels: [String] = []
    }

    /// One structure to build, in the order they are tried.
    private enum Step: Hashable, CaseIterable {
        case admin, district, timezone, ocean, inlandWater, city, suburb, countries, localities, postcodes, addresses, streets

        /// The area level a step builds alone (`buildArea`); nil for the steps that do more.
        var areaLevel: PlacesSchema.AreaLevel? {
            switch self {
            case .admin: return .admin
            case .district: return .district
            case .timezone: return .timezone
            case .ocean: return .ocean
            case .inlandWater: return .inlandWater
            case .city: return .city
            case .suburb: return .suburb
            case .countries, .localities, .postcodes, .addresses, .streets: return nil
            }
        }
    }

    let collector: LookupCollector
    let database: SQLiteDatabase
    /// Whether pages and area tiles are deflated (`PageCompression`): with an extract, whose database grows with
    /// the data. The embedded default's stay as they are: a batch loads the whole world's area tiles at its start,
    /// and inflating them made a 1 M-point batch of four fields a third slower (1.03 → 1.40 s), for 57 MB of 247.
    private let deflatesPages: Bool
    /// Deflates the pages and tiles stored from this thread on the other core, when they are deflated.
    let deflater: BackgroundDeflate?
    private let progress: (ImportProgress) -> Void
    /// Layers not yet read, by what they feed.
    private var unreadLayers: [LookupCollector.Input: Int] = [:]
    private var doneSteps: Set<Step> = []
    /// The levels that later steps look points up in, while they still need them, read back by tile.
    private var indexes: [PlacesSchema.AreaLevel: SpilledAreaTiles] = [:]
    private var report = Report()
    /// Decided with the localities, stored with the other area features at the end.
    private var adminNames: [AdministrativeAreaNaming.Decision] = []
    private var adminCountries: [Int32] = []
    /// Each admin polygon's first-level area number (`FirstLevelAreas`), stored with its feature.
    private var adminFirstLevels: [UInt32] = []
    private var countryOfZone: [Int32] = []

    /// Creates the lookup tables; `plans` are the layers the import will read.
    /// `otherInputs` are what sources other than shapefiles (OpenStreetMap extracts) will feed, one entry
    /// per source and input; each is read when `layerRead(feeding:)` says so.
    init(
        plans: [LayerPlan], otherInputs: [LookupCollector.Input] = [], collector: LookupCollector, database: SQLiteDatabase,
        progress: @escaping (ImportProgress) -> Void
    ) throws {
        self.collector = collector
        self.database = database
        self.progress = progress
        deflatesPages = !otherInputs.isEmpty
        let deflater = deflatesPages ? BackgroundDeflate() : nil
        self.deflater = deflater
        for input in otherInputs { unreadLayers[input, default: 0] += 1 }
        var records: [LookupCollector.Input: Int] = [:]
        for plan in plans {
            guard let input = LookupCollector.Input(plan.profile) else { continue }
            unreadLayers[input, default: 0] += 1
            records[input, default: 0] += plan.reader.recordCount
        }
        // Room for every record, rather than arrays that double as they fill.
        collector.localities.reserveCapacity(records[.locality] ?? 0)
        try database.execute(PlacesSchema.createStatements)
        collector.areaRunPrefix = database.path + "-area-run-"
        // Made even without such layers: a database always has its (then empty) point levels.
        // With an extract, each postcode point keeps its coordinate: the country holding it decides whether it may
        // answer (`takeNearestPostcodeOfTheCountry`).
        collector.postcodes = try PointLevelWriter(
            .postcode, fieldCount: 1, withCoordinates: !otherInputs.isEmpty, database: database, deflate: deflatesPages,
            deflater: deflater)
        collector.addresses = try PointLevelWriter(
            .address, fieldCount: PlacesSchema.AddressField.allCases.count, database: database, deflate: deflatesPages,
            deflater: deflater)
        // Made even without a thoroughfare layer: a database always has its (then empty) street index.
        collector.streets = StreetTilesBuilder(runPrefix: database.path + "-street-run-")
        collector.streetCovers = StreetTilesBuilder(runPrefix: database.path + "-street-cover-run-", bufferBytes: 1 << 20)
        let storePage = try Self.pageStore(database, deflater: deflater, recordPages: true)
        collector.streetNames = PagedRecordsWriter(fieldCount: PlacesSchema.StreetField.allCases.count) { number, blob in
            try storePage(PlacesSchema.PageKind.streetRecords.key(level: 0, page: number), blob)
        }
        collector.objects = StreetTilesBuilder(runPrefix: database.path + "-object-run-", grid: .objects)
        // Its buffer is smaller than the others': it fills beside the objects' own sort (one record per outlined
        // object), and at 32 MB it reached its cap only in larger extracts, so the import's peak grew with them.
        collector.objectCovers = StreetTilesBuilder(runPrefix: database.path + "-cover-run-", grid: .objects, bufferBytes: 8 << 20)
        collector.objectRecords = try ObjectNearestStreets(temporaryPrefix: database.path + "-")
    }

    /// Builds whatever a layer that was just read, feeding `input`, was the last one for.
    func layerRead(feeding input: LookupCollector.Input?) throws {
        if let input { unreadLayers[input, default: 0] -= 1 }
        try buildReadySteps()
    }

    /// As `layerRead` for each of `inputs`, but the area levels and countries they complete are built on the other
    /// core while `job`, which may use the database's connection, runs on this thread; their tiles wait in a temporary
    /// file (`DeferredAreaTiles`) and are stored once both are done, in the order built. The rest is built after.
    /// `job` may add to the collector, but not to what these steps read; both may report progress (`Importer.progress`
    /// is safe from any thread).
    func layersRead(feeding inputs: [LookupCollector.Input], beside job: () throws -> Void) throws {
        for input in inputs { unreadLayers[input, default: 0] -= 1 }
        if let failure = collector.pointFailure { throw failure }
        let steps = Step.allCases.filter { !doneSteps.contains($0) && isReady($0) && ($0.areaLevel != nil || $0 == .countries) }
        // Taken here: the job may add levels to the collector's dictionary.
        let areas = collector.areas.filter { level, _ in steps.contains { $0.areaLevel == level } }
        let deferred = try DeferredAreaTiles(path: database.path + "-deferred-tiles")
        _ = try SideBySide.run(
            job,
            {
                for step in steps {
                    if let level = step.areaLevel {
                        try buildArea(level, areas[level], deferred: deferred)
                    } else {
                        try buildCountries(deferred: deferred)
                    }
                    doneSteps.insert(step)
                    ImportMemoryTrace.note("built \(step)")
                }
            })
        var stores: [PlacesSchema.AreaLevel: (Int, UInt32, [UInt8]?) throws -> Void] = [:]
        try deferred.drain { level, tile, reference, blob in
            if stores[level] == nil { stores[level] = try tileStore(level) }
            try stores[level]?(tile, reference, blob)
        }
        ImportMemoryTrace.note("stored \(steps.map { "\($0)" }.joined(separator: ", "))")
        try buildReadySteps()
    }

    /// Stores a page of `travel411_pages` under its key: deflated on the other core by `deflater`, in the order
    /// given, else as it is; `recordPages`, pages of records, coded (`RecordPageCoding`) before they are deflated.
    static func pageStore(_ database: SQLiteDatabase, deflater: BackgroundDeflate?, recordPages: Bool = false) throws -> (
        Int64, [UInt8]
    ) throws -> Void {
        let insert = try database.prepare("INSERT INTO travel411_pages (key, blob) VALUES (?, ?)")
        guard let deflater else { return { key, page in try insert.run([.integer(key), .recordPage(page, deflate: false)]) } }
        return { key, page in
            try deflater.store(page, coding: recordPages ? .records : .none) { blob in
                try insert.run([.integer(key), blob.map(SQLValue.blob) ?? .null])
            }
        }
    }

    /// Builds what is left, once every layer has been read, and the area features.
    package func finish() throws -> Report {
        unreadLayers = [:]
        try buildReadySteps()
        try deflater?.flush()
        try storeAreaFeatures(
            adminNames: adminNames,
            countryFeature: [
                .admin: adminCountries, .timezone: countryOfZone, .city: countryFeaturesByCode(.city),
                .suburb: countryFeaturesByCode(.suburb),
            ],
            adminFirstLevels: adminFirstLevels)
        try OSMPlaceNodePages.store(from: database, try Self.pageStore(database, deflater: deflater))
        try deflater?.flush()
        return report
    }

    private func allRead(_ input: LookupCollector.Input) -> Bool { unreadLayers[input, default: 0] == 0 }

    private func isReady(_ step: Step) -> Bool {
        switch step {
        case .admin: return allRead(.area(.admin))
        case .district: return allRead(.area(.district))
        case .timezone: return allRead(.area(.timezone))
        case .ocean: return allRead(.area(.ocean))
        case .inlandWater: return allRead(.area(.inlandWater))
        case .city: return allRead(.area(.city))
        case .suburb: return allRead(.area(.suburb))
        case .countries: return allRead(.area(.country)) && doneSteps.contains(.timezone)
        case .localities: return allRead(.locality) && doneSteps.contains(.countries) && doneSteps.contains(.admin)
        case .postcodes: return allRead(.postcode)
        case .addresses: return allRead(.address)
        case .streets: return allRead(.thoroughfare)
        }
    }

    private func buildReadySteps() throws {
        if let failure = collector.pointFailure { throw failure }
        for step in Step.allCases where !doneSteps.contains(step) && isReady(step) {
            switch step {
            case .admin, .district, .timezone, .ocean, .inlandWater, .city, .suburb:
                if let level = step.areaLevel { try buildArea(level, collector.areas[level]) }
            case .countries: try buildCountries()
            case .localities: try placeLocalities()
            // The tiles merged from the runs the collector spilled, and the last page of records.
            case .postcodes:
                try collector.postcodes?.finish()
                collector.postcodes = nil
            case .addresses:
                try collector.addresses?.finish()
                collector.addresses = nil
            case .streets: try storeStreets()
            }
            doneSteps.insert(step)
            ImportMemoryTrace.note("stored \(step)")
        }
    }

    /// Tiles of one area level (not the countries), stored, or kept in `deferred` to be; its rings are in them
    /// then, and freed.
    private func buildArea(_ level: PlacesSchema.AreaLevel, _ data: LookupCollector.AreaLevelData?, deferred: DeferredAreaTiles? = nil)
        throws
    {
        guard let data else { return }
        progress(ImportProgress(stage: "indexing areas", completed: 0, total: 1))
        // The time zones tell overseas territories apart (`buildCountries`); admin and country place the localities.
        indexes[level] = try storeTiles(level, data.builder, keep: level == .admin || level == .timezone, deferred: deferred)
        data.builder = AreaIndexBuilder()
        progress(ImportProgress(stage: "indexing areas", completed: 1, total: 1))
    }

    /// The countries, once the time zones are indexed: their overseas parts may be territories of their own.
    private func buildCountries(deferred: DeferredAreaTiles? = nil) throws {
        let zoneTables = try TimeZoneCountries.read(from: collector.timeZoneFolders)
        guard let countries = collector.areas[.country] else {
            indexes[.timezone] = nil
            return
        }
        progress(ImportProgress(stage: "indexing areas", completed: 0, total: 1))
        var assignment = TerritoryAssignment(
            countries: countries.features, polygonsOf: collector.countryPolygons(of:), zones: indexes[.timezone]?.lookup(),
            zoneFeatures: collector.areas[.timezone]?.features ?? [], tables: zoneTables)
        indexes[.timezone] = nil
        countries.features = assignment.features
        assignment.forEachPart { countries.builder.add(feature: $0, rings: $1) }
        assignment.parts = []
        try collector.discardCountryPolygons()
        indexes[.country] = try storeTiles(.country, countries.builder, keep: true, deferred: deferred)
        countries.builder = AreaIndexBuilder()
        countryOfZone = assignment.countryOfZoneFeature
        report.territories = assignment.territories
        progress(ImportProgress(stage: "indexing areas", completed: 1, total: 1))
    }

    /// The country and admin polygon of every locality, what they tell about the admin polygons, and the
    /// localities' own structures; nothing looks points up in the area levels after this.
    private func placeLocalities() throws {
        // What the steps before freed (the countries', on the other core) waits for the periodic trim: not in this peak.
        ImportAllocator.releaseFreeMemory()
        progress(ImportProgress(stage: "indexing places", completed: 0, total: 1))
        let localities = collector.localities
        var localityCountryFeatures = [Int?](repeating: nil, count: localities.count), localityAdmins = localityCountryFeatures
        // In a block of its own, so that the tiles the two lookups read back and their order go before the cells are
        // built; looked up a tile at a time (the levels are read back by tile), the answers kept in the localities' order.
        do {
            var tileOrder: [(tile: Int, locality: Int)] = localities.indices.map { (Self.areaTile(localities[$0].coordinate), $0) }
            tileOrder.sort { $0.tile != $1.tile ? $0.tile < $1.tile : $0.locality < $1.locality }
            let countries = indexes[.country]?.lookup(), admins = indexes[.admin]?.lookup()
            for (_, i) in tileOrder {
                let coordinate = localities[i].coordinate
                localityCountryFeatures[i] = countries?.featureIndex(longitude: coordinate.longitude, latitude: coordinate.latitude)
                localityAdmins[i] = admins?.featureIndex(longitude: coordinate.longitude, latitude: coordinate.latitude)
            }
        }
        for tiles in indexes.values { try tiles.checkReads() }
        indexes = [:]
        let countryCodes = fillMissingCountryCodes(countryFeatures: localityCountryFeatures)
        let countryFeatures = collector.areas[.country]?.features ?? []
        // A locality votes for its admin polygon's name when it is of the country it lies in: places just
        // over a border would vote for the other country's names. A GeoNames place kept inside an extract's data only
        // describes (`ExtractPlaces`): the Maldives' atolls kept their OpenStreetMap names only while none stayed.
        let votes = localities.indices.map { i in
            guard let f = localityCountryFeatures[i], !(collector.describingOnly?(i, localities[i].coordinate) ?? false) else {
                return false
            }
            return countryCodes[i] == countryFeatures[f].code
        }
        let adminFeatures = collector.areas[.admin]?.features ?? []
        // Two passes over every locality that share nothing: side by side.
        let (naming, firstLevels) = try SideBySide.run(
            {
                AdministrativeAreaNaming(
                    features: adminFeatures, localities: localities, localityAdmin: localityAdmins, localityCounts: votes)
            },
            { FirstLevelAreas(localities: localities.indices.map { (countryCodes[$0], localities[$0].admin1) }) })
        report.contradictedLabels = naming.contradictions
        adminNames = naming.decisions
        adminCountries = adminCountryFeatures(localityAdmins: localityAdmins, localityCountries: localityCountryFeatures)
        // An admin polygon's area is its decided name in the country it belongs to (the answer's country).
        adminFirstLevels = naming.decisions.indices.map { f in
            let country = f < adminCountries.count && adminCountries[f] >= 0 ? countryFeatures[Int(adminCountries[f])].code : nil
            return firstLevels.number(country: country, name: naming.decisions[f].area)
        }
        try storeLocalities(countryCodes: countryCodes, admins: localityAdmins, firstLevels: firstLevels.localities)
        collector.localities = []
        progress(ImportProgress(stage: "indexing places", completed: 1, total: 1))
    }

    /// The 1° tile of a point, numbered as `AreaIndex` numbers them: the order in which lookups read a level.
    private static func areaTile(_ coordinate: Coordinate) -> Int {
        let column: Int = min(AreaIndex.columns - 1, max(0, Int((coordinate.longitude + 180).rounded(.down))))
        let row: Int = min(AreaIndex.rows - 1, max(0, Int((coordinate.latitude + 90).rounded(.down))))
        return row * AreaIndex.columns + column
    }

    /// The country each admin polygon belongs to, as a country feature: the one most of its localities
    /// lie in, else the one with its country code. A lookup drops an admin polygon of another country
    /// than the point's (they disagree along some simplified or disputed borders).
    private func adminCountryFeatures(localityAdmins: [Int?], localityCountries: [Int?]) -> [Int32] {
        let admins = collector.areas[.admin]?.features ?? []
        let countries = collector.areas[.country]?.features ?? []
        var firstWithCode: [String: Int] = [:]
        for (f, country) in countries.enumerated() {
            if let code = country.code, firstWithCode[code] == nil { firstWithCode[code] = f }
        }
        var tallies = [[Int: Int]](repeating: [:], count: admins.count)
        for case let (admin?, country?) in zip(localityAdmins, localityCountries) where admin < admins.count {
            tallies[admin][country, default: 0] += 1
        }
        return admins.enumerated().map { f, admin in
            if let (country, _) = tallies[f].max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }) {
                return Int32(country)
            }
            return admin.countryCode.flatMap { firstWithCode[$0] }.map(Int32.init) ?? -1
        }
    }

    /// The country feature of each polygon of `level` that names its country's code (an extract's municipalities
    /// and suburbs, `OSMLevelMapping`): the first country feature with that code; -1 for none.
    private func countryFeaturesByCode(_ level: PlacesSchema.AreaLevel) -> [Int32] {
        guard let features = collector.areas[level]?.features, features.contains(where: { $0.countryCode != nil }) else { return [] }
        var firstWithCode: [String: Int32] = [:]
        for (f, country) in (collector.areas[.country]?.features ?? []).enumerated() {
            if let code = country.code?.uppercased(), firstWithCode[code] == nil { firstWithCode[code] = Int32(f) }
        }
        return features.map { feature in feature.countryCode.flatMap { firstWithCode[$0] } ?? -1 }
    }

    /// The level's tiles stored as the builder hands them over, a batch at a time, never all at once; with `keep`,
    /// also kept in a temporary file for the steps that look points up in the level (`SpilledAreaTiles`).
    /// With `deferred`, the tiles go there instead, and the database is not touched (`layersRead(feeding:beside:)`).
    @discardableResult
    private func storeTiles(
        _ level: PlacesSchema.AreaLevel, _ builder: AreaIndexBuilder, keep: Bool = false, deferred: DeferredAreaTiles? = nil
    ) throws -> SpilledAreaTiles? {
        let store: (Int, UInt32, [UInt8]?) throws -> Void
        if let deferred {
            store = { tile, reference, blob in try deferred.add(level, tile: tile, reference: reference, blob: blob) }
        } else {
            store = try tileStore(level)
        }
        guard keep else {
            try builder.build(store)
            return nil
        }
        return try SpilledAreaTiles.build(builder, path: database.path + "-\(level.rawValue)-tiles", store: store)
    }

    /// Stores a tile of `level` in `travel411_area_tiles`: deflated on the other core by `deflater`, in the order
    /// given, else as it is.
    private func tileStore(_ level: PlacesSchema.AreaLevel) throws -> (Int, UInt32, [UInt8]?) throws -> Void {
        let insert = try database.prepare("INSERT INTO travel411_area_tiles (key, reference, blob) VALUES (?, ?, ?)")
        let deflater = deflater
        return { tile, reference, blob in
            let row = { (stored: [UInt8]?) in
                try insert.run([.integer(level.tileKey(tile)), .integer(Int64(reference)), stored.map(SQLValue.blob) ?? .null])
            }
            guard let deflater else { return try row(blob.map { PageCompression.compressed($0, deflate: false) }) }
            try deflater.store(blob, coding: .areaTile, row)
        }
    }

    /// OpenStreetMap places carry no country: take it from the country polygon they lie in.
    private func fillMissingCountryCodes(countryFeatures: [Int?]) -> [String?] {
        let features = collector.areas[.country]?.features ?? []
        return collector.localities.enumerated().map { i, locality in
            if let code = locality.countryCode { return code }
            return countryFeatures[i].flatMap { features[$0].code }
        }
    }

    private func storeAreaFeatures(
        adminNames: [AdministrativeAreaNaming.Decision],
        countryFeature: [PlacesSchema.AreaLevel: [Int32]], adminFirstLevels: [UInt32]
    ) throws {
        let insert = try database.prepare(
            """
            INSERT INTO travel411_areas (level, feature, layer, fid, name, code, country_code, administrative_area,
                                         sub_administrative_area, administrative_area_code, country_feature,
                                         first_level_area, postcode, municipality, place_type, centre, tagged_postcode)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
        for (level, data) in collector.areas {
            let countries = countryFeature[level] ?? []
            for (f, feature) in data.features.enumerated() {
                let derived = level == .admin && f < adminNames.count ? adminNames[f] : AdministrativeAreaNaming.Decision()
                try insert.run([
                    .text(level.rawValue), .integer(Int64(f)), .text(feature.layer), .integer(feature.fid),
                    text(feature.name), text(feature.code), text(feature.countryCode),
                    text(derived.area), text(derived.subArea), text(derived.code),
                    f < countries.count && countries[f] >= 0 ? .integer(Int64(countries[f])) : .null,
                    level == .admin && f < adminFirstLevels.count && adminFirstLevels[f] != 0
                        ? .integer(Int64(adminFirstLevels[f])) : .null,
                    text(feature.postcode), feature.municipality.map { .integer(Int64($0)) } ?? .null, text(feature.placeType),
                    text(feature.centre.map(OSMLevelMapping.pointText)), text(feature.taggedPostcode),
                ])
            }
        }
        try database.execute(PlacesSchema.areaElementIndexStatement)
    }

    private func storeLocalities(countryCodes: [String?], admins: [Int?], firstLevels: [UInt32]) throws {
        let localities = collector.localities
        var places: [PointIndexBuilder.Place] = []
        places.reserveCapacity(localities.count)
        for (i, locality) in localities.enumerated() {
            var place = PointIndexBuilder.Place(coordinate: locality.coordinate, id: UInt32(i))
            place.catchmentMetres = PlaceExtent.catchmentMetres(population: locality.population)
            place.population = UInt32(min(locality.population, Double(UInt32.max)))
            place.country = countryCodes[i]
            place.group = admins[i].map { UInt32($0 + 1) } ?? 0
            places.append(place)
        }
        // The cells take longest to build and share nothing with the rest: built on the other core while this
        // thread builds the tree and the records and writes them and the table through the connection. What the
        // lookups freed here (the tiles read back) is handed back first: the other core's heap cannot reuse it.
        ImportAllocator.releaseFreeMemory()
        let (cells, _) = try SideBySide.run(
            { LocalityCellPages(places, firstLevels: firstLevels, deflate: deflatesPages) },
            { try storeLocalityPoints(places, countryCodes: countryCodes) })
        // After every page handed to the deflater, so that the rows go in the order they always did.
        try deflater?.flush()
        try cells.storeTiles(in: database)
        try storePages([(0, cells.groups)], kind: .localityGroups, level: 0)
        try database.execute(PlacesSchema.localityIndexStatements)
    }

    /// The localities' point index and records, and their plain table, for searches by name (`destination create
    /// --city`).
    private func storeLocalityPoints(_ places: [PointIndexBuilder.Place], countryCodes: [String?]) throws {
        let localities = collector.localities
        // Each page built as it is stored: all at once (and every locality's fields) held ~200 bytes a locality.
        let pageSize = PagedRecords.pageSize
        let records = (0..<(localities.count + pageSize - 1) / pageSize).lazy.map { number in
            let page = number * pageSize..<min((number + 1) * pageSize, localities.count)
            return RecordTable.build(
                coordinates: localities[page].map(\.coordinate),
                fields: page.map { [localities[$0].name, localities[$0].admin1, localities[$0].admin2, countryCodes[$0]] },
                fieldCount: PlacesSchema.LocalityField.allCases.count)
        }
        try storePoints(
            .locality, coordinates: localities.map(\.coordinate), tree: PointIndexBuilder().build(places, withGroups: true),
            recordPages: records.count)
        try storePages(records.enumerated().lazy.map { ($0, $1) }, kind: .pointRecords, level: PlacesSchema.PointLevel.locality.ordinal)
        let insert = try database.prepare(
            """
            INSERT INTO travel411_localities (id, name, admin1, admin2, cc, population, latitude, longitude)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (i, l) in localities.enumerated() {
            try insert.run([
                .integer(Int64(i)), .text(l.name), l.admin1.map(SQLValue.text) ?? .null, l.admin2.map(SQLValue.text) ?? .null,
                countryCodes[i].map(SQLValue.text) ?? .null, .integer(Int64(l.population)),
                .real(l.coordinate.latitude), .real(l.coordinate.longitude),
            ])
        }
    }

    private func storePoints(
        _ level: PlacesSchema.PointLevel, coordinates: [Coordinate], tree: PointIndexBuilder.Output, recordPages: Int
    ) throws {
        var box = BoundingBox.empty
        for c in coordinates { box.extend(x: c.longitude, y: c.latitude) }
        let bounds: [SQLValue] =
            box.isEmpty ? [.null, .null, .null, .null] : [.real(box.minX), .real(box.minY), .real(box.maxX), .real(box.maxY)]
        try database.run(
            "INSERT INTO travel411_point_indexes (level, min_x, min_y, max_x, max_y, tree, record_pages) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [.text(level.rawValue)] + bounds + [.blob(tree.top), .integer(Int64(recordPages))])
        try storePages(tree.pages, kind: .pointNodes, level: level.ordinal)
    }

    private func storePages(_ pages: some Sequence<(number: Int, blob: [UInt8])>, kind: PlacesSchema.PageKind, level: Int64) throws {
        let storePage = try Self.pageStore(database, deflater: deflater)
        for page in pages { try storePage(kind.key(level: level, page: page.number), page.blob) }
    }

    /// The streets' tiles, merged from the runs the collector spilled, and the last page of their names; then
    /// OpenStreetMap's address points and POIs the same way, and the streets' postcodes.
    private func storeStreets() throws {
        guard let streets = collector.streets, var names = collector.streetNames else { return }
        collector.streets = nil
        collector.streetNames = nil
        progress(ImportProgress(stage: "indexing streets", completed: 0, total: 1))
        let insert = try database.prepare("INSERT INTO travel411_pages (key, blob) VALUES (?, ?)")
        // Deflated with the rest of each page's building, on every core (`SQLValue.page`'s form).
        let deflatesPages = deflatesPages
        let coding: @Sendable ([UInt8]) -> [UInt8] = { PageCompression.compressed($0, deflate: deflatesPages) }
        let directory = try streets.finish(coding: coding) { number, blob in
            try insert.run([.integer(PlacesSchema.PageKind.streetTiles.key(level: 0, page: number)), .blob(blob)])
        }
        ImportMemoryTrace.note("street tiles")
        let streetCount = names.recordCount
        let pageCount = try names.finish()
        try storeLineIndex(.thoroughfare, directory: directory, recordPages: pageCount)
        if let covers = collector.streetCovers {
            collector.streetCovers = nil
            let coverDirectory = try covers.finish(coding: coding) { number, blob in
                try insert.run([.integer(PlacesSchema.PageKind.streetTiles.key(level: 3, page: number)), .blob(blob)])
            }
            try storeLineIndex(.streetCovers, directory: coverDirectory, recordPages: 0)
        }
        // Written even without an object: a level that is absent makes a point answer by the nearby-feature
        // rules, so an extract's cut without objects answered unlike the same cut beside another extract.
        if let objects = collector.objects, let pending = collector.objectRecords {
            try storeObjects(objects, pending, streets: (directory, pageCount, streetCount), insert: insert, coding: coding)
        }
        collector.objects = nil
        collector.objectCovers = nil
        collector.objectRecords = nil
        collector.interpolations = OSMInterpolationLines()
        if let table = collector.streetPostcodes, !table.isEmpty {
            let storePage = try Self.pageStore(database, deflater: deflater, recordPages: true)
            var postcodes = PagedRecordsWriter(fieldCount: PlacesSchema.StreetPostcodeField.allCases.count) { number, blob in
                try storePage(PlacesSchema.PageKind.streetRecords.key(level: 2, page: number), blob)
            }
            try table.forEach(streetCount: streetCount) { try postcodes.append([$0, $1, $2 ? "1" : nil]) }
            try storeLineIndex(.streetPostcodes, directory: [], recordPages: try postcodes.finish())
        }
        collector.streetPostcodes = nil
        progress(ImportProgress(stage: "indexing streets", completed: 1, total: 1))
    }

    func storeLineIndex(_ index: PlacesSchema.LineIndex, directory: [UInt8], recordPages: Int) throws {
        try database.run(
            "INSERT INTO travel411_line_indexes (level, lines, record_pages) VALUES (?, ?, ?)",
            [.text(index.rawValue), .blob(directory), .integer(Int64(recordPages))])
    }
}
