import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM
import Travel411Shapefile
import Travel411Store
import Travel411StoreWriters

/// Imports shapefiles into a new places database (a GeoPackage plus travel411's lookup tables).
///
/// Every file is opened and checked before anything is written, and the database is built in a
/// temporary file that replaces the old one only when the whole import succeeded.
public struct Importer {
    public let options: ImportOptions
    /// Called from the import's threads: steps built side by side report from the other core, possibly while this
    /// one does, so it must be safe to call from any thread (`ProgressBar` is).
    public let progress: (ImportProgress) -> Void

    public init(options: ImportOptions, progress: @escaping (ImportProgress) -> Void = { _ in }) {
        self.options = options
        self.progress = progress
    }

    public func run() throws -> ImportSummary {
        let started = Date()
        try PlacesDatabaseLocation.refuseFolder(options.databasePath)
        var inputs = try checkedInputs()
        var layers: [ImportedLayer] = []
        var report = LookupTablesWriter.Report()
        try AtomicFileReplacement.replace(URL(fileURLWithPath: inputs.options.databasePath)) { temporary in
            (layers, report) = try writeDatabase(at: temporary, from: &inputs)
        }
        let fallbacks = [inputs.fallbackCountries, inputs.fallbackTimeZones, inputs.fallbackLocalities].compactMap { $0 }
        var warnings = inputs.warnings
        if let note = inputs.replaced?.warning(imported: inputs.files + inputs.extracts + fallbacks, checksums: inputs.checksums) {
            warnings.append(note)
        }
        return ImportSummary(
            databasePath: inputs.options.databasePath, layers: layers, warnings: warnings,
            seconds: Date().timeIntervalSince(started), territories: report.territories,
            contradictedLabels: report.contradictedLabels)
    }

    /// What an import reads, every file opened and checked, before anything is written.
    private struct Inputs {
        var options: ImportOptions
        var warnings: [String] = []
        var replaced: ReplacedDatabase?
        var files: [URL] = []
        var extracts: [URL] = []
        var extractsToRead: [URL] = []
        var checksums: [URL: String] = [:]
        var usedTables = Set<String>()
        /// Emptied once the import starts reading them: each plan is let go once read.
        var plans: [LayerPlan] = []
        var totalRecords = 0
        var fallbackCountries: URL?
        var fallbackTimeZones: URL?
        var fallbackLocalities: URL?
    }

    private func checkedInputs() throws -> Inputs {
        var inputs = Inputs(options: options)
        if options.append { inputs.warnings += try ImportAppend.addPreviousSources(to: &inputs.options) }
        let options = inputs.options
        inputs.replaced = options.append ? nil : ReplacedDatabase.read(at: options.databasePath)
        let extracts = options.paths.filter(OSMExtractImport.isExtract)
        let files = try ShapefileDiscovery.shapefiles(in: options.paths.filter { !OSMExtractImport.isExtract($0) })
        (inputs.files, inputs.extracts) = (files, extracts)
        try ImportInputCheck.checkFileOptions(options, against: files + extracts)
        for extract in extracts where !FileManager.default.fileExists(atPath: extract.path) {
            throw ShapefileDiscovery.NotFound(path: extract.path, reason: "no such file")
        }
        if !extracts.isEmpty, options.extractReader == nil { throw ExtractReaderMissing(extracts: extracts) }
        for url in files { inputs.checksums[url] = try SourceChecksum.sha256Hex(ofFiles: ShapefileDiscovery.componentFiles(of: url)) }
        for url in extracts { inputs.checksums[url] = try SourceChecksum.sha256Hex(ofFiles: [url]) }
        let duplicates = ImportInputCheck.duplicates(in: files + extracts, checksums: inputs.checksums)
        inputs.warnings += duplicates.warnings
        let plans = try files.filter { !duplicates.skipped.contains($0) }.map {
            try LayerPlan.make(url: $0, options: options, usedTables: &inputs.usedTables)
        }
        inputs.plans = plans
        inputs.extractsToRead = extracts.filter { !duplicates.skipped.contains($0) }
        inputs.warnings += plans.flatMap { plan in plan.reader.warnings.map { "\(plan.url.lastPathComponent): \($0)" } }
        inputs.warnings += ImportInputCheck.sameLayouts(plans)
        inputs.warnings += ImportInputCheck.unusedLevel(options, plans: plans)
        inputs.totalRecords = plans.reduce(0) { $0 + $1.reader.recordCount }
        // An extract's country boundary is cut at its edge unless the extract is a whole country, and it does
        // not say what lies beyond: the embedded Natural Earth countries do, as Nominatim's own country grid
        // does, when the import has no country layer of its own. Natural Earth's polygon of a country the
        // extract has a polygon for is left out.
        let hasCountryLayer = plans.contains { $0.profile.level == .country }
        inputs.fallbackCountries =
            inputs.extractsToRead.isEmpty || hasCountryLayer ? nil : Self.embedded("countries/ne_10m_admin_0_countries.shp")
        // The same for the time zones, which an extract does not hold either.
        let hasTimeZoneLayer = plans.contains { $0.profile.level == .timezone }
        inputs.fallbackTimeZones =
            inputs.extractsToRead.isEmpty || hasTimeZoneLayer ? nil : Self.embedded("timezones/iana_time_zones.shp")
        // And the places around it: a point outside an extract is described from the nearest real town (GeoNames'),
        // not from the extract's places hundreds of kilometres away. Within the extract's data the extract's own
        // places answer (`extractPlacesReason`).
        let hasLocalityLayer = plans.contains { $0.profile.level == .locality }
        inputs.fallbackLocalities =
            inputs.extractsToRead.isEmpty || hasLocalityLayer ? nil : Self.embedded("localities/geonames_cities1000.shp")
        return inputs
    }

    /// The whole database, in the temporary file that replaces the old one once it is complete.
    private func writeDatabase(at temporary: URL, from inputs: inout Inputs) throws -> ([ImportedLayer], LookupTablesWriter.Report) {
        let freeMemoryReturn = ImportAllocator.releaseFreeMemoryPeriodically()
        defer { freeMemoryReturn.cancel() }
        let database = try SQLiteDatabase(path: temporary.path)
        let geoPackage = try GeoPackageWriter(database: database)
        let collector = LookupCollector()
        let fallbackInputs: [LookupCollector.Input] =
            (inputs.fallbackCountries == nil ? [] : [.area(.country)]) + (inputs.fallbackTimeZones == nil ? [] : [.area(.timezone)])
            + (inputs.fallbackLocalities == nil ? [] : [.locality])
        let lookupTables = try LookupTablesWriter(
            plans: inputs.plans,
            otherInputs: (inputs.extractsToRead.isEmpty ? [] : OSMExtractImport.inputs) + fallbackInputs,
            collector: collector,
            database: database, progress: progress)
        // The extracts first: an extract's country polygon then comes before Natural Earth's in the country
        // level, and a lookup answers the first polygon holding the point.
        let extracts = try importExtracts(&inputs, into: geoPackage, collector: collector, lookupTables: lookupTables)
        var layers = extracts.layers
        let extractExtents = try zip(extracts.tables, extracts.unwritten).flatMap {
            try ExtractCoverage(tables: $0, unwritten: $1.extent, fileExtents: extracts.fileExtents).boxes(in: database)
        }
        // The extracts' layers are all the layers so far; those not written give their tiles themselves.
        let written = layers.filter { !extracts.unwrittenTables.contains($0.table) }
        let extractStreetTiles = try ExtractTiles.touched(by: written.filter { $0.level == .thoroughfare }.map(\.table), in: database)
            .union(extracts.unwritten.flatMap(\.streetTiles))
        let extractDataTiles = try ExtractTiles.data(of: written, in: database).union(extracts.unwritten.flatMap(\.dataTiles))
        // The places of every locality layer, the user's, Data/'s or the fallback, give way to the extracts' where
        // these have data and a town of theirs reaches (`ExtractPlaces`): Data/ and an extract answer there as the
        // extract alone.
        let extractPlaces =
            inputs.extractsToRead.isEmpty
            ? nil
            : ExtractPlaces(
                tiles: DataTiles(keys: extractDataTiles), localities: collector.localities, reaches: collector.extractLocalityReaches)
        let extractLocalityCount = collector.extractLocalityReaches.count
        if let tiles = extractPlaces?.tiles { collector.describingOnly = { $0 >= extractLocalityCount && tiles.contains($1) } }
        ImportMemoryTrace.note("extract tiles")
        layers += try importShapefiles(
            &inputs, into: geoPackage, collector: collector, lookupTables: lookupTables, replacedCountries: extracts.countries,
            extractStreets: (extractExtents, extractStreetTiles), extractPlaces: extractPlaces)
        layers += try importFallbacks(
            &inputs, into: geoPackage, collector: collector, lookupTables: lookupTables, replacedCountries: extracts.countries,
            extractPlaces: extractPlaces)
        ImportMemoryTrace.note("other layers")
        let report = try lookupTables.finish()
        ImportMemoryTrace.note("lookups stored")
        try geoPackage.setMetadata(key: "lookup_schema_version", value: PlacesSchema.version)
        if !inputs.extractsToRead.isEmpty {
            try geoPackage.setMetadata(key: OSMAnswerRules.metadataKey, value: OSMAnswerRules.metadataValue)
            try geoPackage.setMetadata(
                key: OSMAnswerRules.coverageKey,
                value: OSMAnswerRules.coverageText(extractExtents))
            try geoPackage.setMetadata(key: OSMAnswerRules.coverageTilesKey, value: DataTiles(keys: extractDataTiles).text)
            try geoPackage.setMetadata(key: OSMAnswerRules.extractLocalitiesKey, value: String(extractLocalityCount))
            try geoPackage.setMetadata(key: FeatureLayers.metadataKey, value: (inputs.options.featureLayers ?? .all).rawValue)
        }
        if let newest = extracts.dates.max() {
            try geoPackage.setMetadata(key: OSMExtractImport.dataTimestampKey, value: GeoPackageSchema.timestamp(newest))
        }
        try geoPackage.finish()
        return (layers, report)
    }

    /// What the extracts' import gives the layers imported after them and the metadata.
    private struct ImportedExtracts {
        var layers: [ImportedLayer] = []
        var countries = Set<String>()
        var dates: [Date] = []
        /// Each extract's tables of its own data (not the country grid's pieces, which reach far beyond it).
        var tables: [[String]] = []
        /// What each extract's layers that were not written (`--layers lookups`) covered, and their tables.
        var unwritten: [UnwrittenCoverage] = []
        var unwrittenTables = Set<String>()
        /// Each extract file's extent of node locations (`OSMReadSummary.fileExtents`).
        var fileExtents: [BoundingBox?] = []
    }

    private func importExtracts(
        _ inputs: inout Inputs, into geoPackage: GeoPackageWriter, collector: LookupCollector, lookupTables: LookupTablesWriter
    ) throws -> ImportedExtracts {
        var imported = ImportedExtracts()
        // Several extracts are read as one, so that the objects neighbouring extracts share come once.
        let extracts = inputs.extractsToRead
        guard !extracts.isEmpty else { return imported }
        guard let reader = inputs.options.extractReader else { throw ExtractReaderMissing(extracts: extracts) }
        let outcome = try OSMExtractImport(
            reader: reader, urls: extracts, checksums: extracts.map { inputs.checksums[$0] ?? "" }, nodesFile: inputs.options.nodesFile,
            featureLayers: inputs.options.featureLayers ?? .all
        )
        .run(into: geoPackage, collector: collector, usedTables: &inputs.usedTables, progress: progress) { indexing in
            try lookupTables.layersRead(feeding: OSMExtractImport.areaInputs, beside: indexing)
        }
        imported.layers += outcome.layers
        imported.tables.append(outcome.layers.filter { $0.level != .country }.map(\.table))
        imported.unwritten.append(outcome.unwritten)
        imported.unwrittenTables.formUnion(outcome.unwrittenTables)
        inputs.warnings += outcome.warnings
        imported.countries.formUnion(outcome.countryCodes)
        imported.dates += outcome.dataTimestamp.map { [$0] } ?? []
        imported.fileExtents = outcome.fileExtents
        for input in OSMExtractImport.inputs.dropFirst(OSMExtractImport.areaInputs.count) { try lookupTables.layerRead(feeding: input) }
        return imported
    }

    private func importShapefiles(
        _ inputs: inout Inputs, into geoPackage: GeoPackageWriter, collector: LookupCollector, lookupTables: LookupTablesWriter,
        replacedCountries: Set<String>, extractStreets: (extents: [BoundingBox], tiles: Set<UInt32>), extractPlaces: ExtractPlaces?
    ) throws -> [ImportedLayer] {
        // Each plan is let go once read, closing its files (a DBF's pages, mapped, stay resident while it
        // is open), before the lookup structures it completes are built.
        var unread = Array(inputs.plans.reversed())
        inputs.plans = []
        var layers: [ImportedLayer] = []
        var recordsDone = 0
        let totalRecords = inputs.totalRecords
        while !unread.isEmpty {
            let feeds: LookupCollector.Input?
            do {
                let plan = unread.removeLast()
                let layer = try importLayer(
                    plan, checksum: inputs.checksums[plan.url], into: geoPackage, collector: collector,
                    replacedCountries: replacedCountries,
                    extractStreets: extractStreets, extractPlaces: extractPlaces
                ) { done in
                    progress(ImportProgress(stage: "reading shapefiles", completed: recordsDone + done, total: totalRecords))
                }
                recordsDone += plan.reader.recordCount
                layers.append(layer)
                feeds = LookupCollector.Input(plan.profile)
            }
            try lookupTables.layerRead(feeding: feeds)
        }
        return layers
    }

    /// Data/'s time zones, countries and places where the extracts leave them out (checkedInputs()).
    private func importFallbacks(
        _ inputs: inout Inputs, into geoPackage: GeoPackageWriter, collector: LookupCollector, lookupTables: LookupTablesWriter,
        replacedCountries: Set<String>, extractPlaces: ExtractPlaces?
    ) throws -> [ImportedLayer] {
        var layers: [ImportedLayer] = []
        if let fallbackTimeZones = inputs.fallbackTimeZones {
            let plan = try LayerPlan.make(url: fallbackTimeZones, options: inputs.options, usedTables: &inputs.usedTables)
            layers.append(try importLayer(plan, checksum: nil, into: geoPackage, collector: collector) { _ in })
            try lookupTables.layerRead(feeding: .area(.timezone))
        }
        // GeoNames' places go into their table while the countries are built on the other core.
        var localities: LayerPlan?
        if let url = inputs.fallbackLocalities {
            localities = try LayerPlan.make(url: url, options: inputs.options, usedTables: &inputs.usedTables)
        }
        let readLocalities = {
            guard let localities else { return }
            layers.append(
                try importLayer(localities, checksum: nil, into: geoPackage, collector: collector, extractPlaces: extractPlaces) { _ in })
        }
        if let fallbackCountries = inputs.fallbackCountries {
            let plan = try LayerPlan.make(url: fallbackCountries, options: inputs.options, usedTables: &inputs.usedTables)
            layers.append(
                try importLayer(
                    plan, checksum: nil, into: geoPackage, collector: collector, replacedCountries: replacedCountries
                ) { _ in })
            try lookupTables.layersRead(feeding: [.area(.country)], beside: readLocalities)
        } else {
            try readLocalities()
        }
        if localities != nil { try lookupTables.layerRead(feeding: .locality) }
        return layers
    }

    /// A place of a locality layer (Data/'s GeoNames, embedded or imported with the extract, or the user's) where an
    /// extract has data (`DataTiles`, the tiles where Nominatim's rules answer) and one of its towns reaches
    /// (`ExtractPlaces`): there the extract's own places answer, as Nominatim's on that extract would, whether the
    /// import has other layers or not; GeoNames' point of the same town (often hundreds of metres from
    /// OpenStreetMap's) would only move the distances and the nearest place.
    private static func extractPlacesReason(_ plan: LayerPlan, _ shape: Shape, _ extractPlaces: ExtractPlaces?) -> String? {
        guard plan.profile.level == .locality, let extractPlaces, case .point(let point) = shape,
            extractPlaces.replace(Coordinate(latitude: point.y, longitude: point.x))
        else { return nil }
        return "an OpenStreetMap extract gave the places here"
    }

    /// Why a country of Natural Earth is left out of the lookups: an extract gave its own polygon.
    /// A country whose boundary an extract gave takes its subdivisions from the extract too: Natural Earth's
    /// first-level areas of Liechtenstein are its 11 municipalities, drawn coarsely, which named a point of
    /// Gamprin `state: Planken` beside the extract's exact municipality (Nominatim, without an admin_level 4
    /// there, names no state).
    private func replacedCountryReason(_ plan: LayerPlan, _ record: Int, _ replaced: Set<String>) -> String? {
        guard !replaced.isEmpty else { return nil }
        switch plan.profile.level {
        case .country:
            guard let code = plan.text(.code, record: record)?.uppercased(), replaced.contains(code) else { return nil }
            return "an OpenStreetMap extract gave this country's polygon"
        case .admin:
            guard let code = plan.text(.countryCode, record: record)?.uppercased(), replaced.contains(code) else { return nil }
            return "an OpenStreetMap extract gave this area's country"
        default:
            return nil
        }
    }

    /// A street of another layer within an extract's extent whose every 0.1° tile holds streets of an extract:
    /// there Nominatim's rules answer from the extract's streets alone, as Nominatim on that extract does, and the
    /// other layer's line (most often the same OpenStreetMap way of another date) would only be searched in vain.
    /// Data/'s central Helsinki highways (2,503 lines, the Helsinki extract's streets again) never answered on
    /// `Data/` + the extract and cost 3 % of a batch's CPU. The tiles as well as the extent: a Norway extract's
    /// box holds Helsinki, whose streets it does not have; a line that runs out of the extent answers beyond it.
    private static func extractStreetsReason(
        _ plan: LayerPlan, _ shape: Shape, _ extract: (extents: [BoundingBox], tiles: Set<UInt32>)
    ) -> String? {
        guard plan.profile.level == .thoroughfare, !extract.tiles.isEmpty else { return nil }
        let box = shape.boundingBox
        guard extract.extents.contains(where: { $0.contains(box) }) else { return nil }
        let (rows, columns) = TileGrid.tiles(touching: box)
        guard columns.count * rows.count <= 64 else { return nil }
        for row in rows {
            for column in columns where !extract.tiles.contains(TileGrid.tileKey(row: row, column: column)) { return nil }
        }
        return "an OpenStreetMap extract gave the streets here"
    }

    /// A shapefile of the embedded Data/, when it can be found.
    package static func embedded(_ path: String) -> URL? {
        guard let data = try? EmbeddedData.locate() else { return nil }
        let url = data.appendingPathComponent(path)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    private func importLayer(
        _ plan: LayerPlan, checksum: String?, into geoPackage: GeoPackageWriter, collector: LookupCollector,
        replacedCountries: Set<String> = [], extractStreets: (extents: [BoundingBox], tiles: Set<UInt32>) = ([], []),
        extractPlaces: ExtractPlaces? = nil, progress: (Int) -> Void
    ) throws -> ImportedLayer {
        let started = Date()
        let reader = plan.reader
        let columns = FeatureColumnMapping(fields: reader.fields)
        let table = try geoPackage.createFeatureTable(
            plan.table, geometryType: Self.geometryType(reader.geometryKind), columns: columns.columns,
            description: "\(plan.profile.layout) from \(plan.url.lastPathComponent)")
        var features = 0
        var skipReasons: [String: Int] = [:]
        for record in 0..<reader.recordCount {
            if record % 4096 == 0 {
                progress(record)
                reader.releaseAttributes(before: record)
            }
            switch try reader.record(at: record) {
            case .null:
                skipReasons["null shape", default: 0] += 1
            case .invalid(let reason):
                skipReasons[Self.reasonWithoutRecordNumber(reason), default: 0] += 1
            case .shape(let shape):
                let fid = try table.insert(shape, values: columns.values(reader, record: record))
                if let reason = try plan.unusedReason(record: record) ?? replacedCountryReason(plan, record, replacedCountries)
                    ?? Self.extractStreetsReason(plan, shape, extractStreets) ?? Self.extractPlacesReason(plan, shape, extractPlaces)
                    ?? collector.collect(plan.lookupShape(shape), record: record, fid: fid, plan: plan)
                {
                    skipReasons["kept in the layer but not used for lookups: \(reason)", default: 0] += 1
                }
                features += 1
            }
        }
        try table.finish()
        let seconds = Date().timeIntervalSince(started)
        let skipped = skipReasons.filter { !$0.key.hasPrefix("kept") }.values.reduce(0, +)
        try geoPackage.recordSource(
            SourceRecord(
                layer: plan.table, level: plan.profile.level.rawValue, path: plan.url.path,
                sha256: try checksum ?? SourceChecksum.sha256Hex(ofFiles: ShapefileDiscovery.componentFiles(of: plan.url)),
                featureCount: features, skippedCount: skipped,
                skippedReasons: skipReasons.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: "; "),
                importSeconds: seconds))
        return ImportedLayer(
            path: plan.url.path, table: plan.table, layout: plan.profile.layout, level: plan.profile.level,
            features: features, skipped: skipped, skipReasons: skipReasons, seconds: seconds)
    }

    /// The reader says "record 17: the shape has no vertices"; skips are counted by reason, which the
    /// record number would turn into one reason per record.
    static func reasonWithoutRecordNumber(_ reason: String) -> String {
        guard reason.hasPrefix("record "), let colon = reason.range(of: ": ") else { return reason }
        let number = reason[reason.index(reason.startIndex, offsetBy: "record ".count)..<colon.lowerBound]
        guard !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber) else { return reason }
        return String(reason[colon.upperBound...])
    }

    static func geometryType(_ kind: ShapefileGeometryKind) -> GeoPackageGeometryType {
        switch kind {
        case .point: return .point
        case .multiPoint: return .multiPoint
        case .polyline: return .multiLineString
        case .polygon: return .multiPolygon
        }
    }
}

/// DBF fields as GeoPackage columns: names made unique and kept clear of `fid` and `geom`.
struct FeatureColumnMapping {
    package let columns: [FeatureColumn]
    private let types: [DBFFieldType]

    init(fields: [DBFField]) {
        var used: Set<String> = ["fid", "geom"]
        var columns: [FeatureColumn] = []
        for field in fields {
            var name = field.name.isEmpty ? "field" : field.name
            var suffix = 2
            while !used.insert(name.lowercased()).inserted {
                name = "\(field.name)_\(suffix)"
                suffix += 1
            }
            switch field.type {
            case .integer: columns.append(.integer(name))
            case .double: columns.append(.real(name))
            default: columns.append(.text(name))
            }
        }
        self.columns = columns
        types = fields.map(\.type)
    }

    /// A plain loop, not `map` over `enumerated()`: the first answer imports Data/ with this module
    /// unoptimised, where each record's generic closure calls cost more than reading its fields.
    package func values(_ reader: ShapefileReader, record: Int) -> [SQLValue] {
        var values: [SQLValue] = []
        values.reserveCapacity(types.count)
        for field in types.indices {
            switch types[field] {
            case .integer:
                if let value = reader.integer(record: record, field: field) { values.append(.integer(value)) } else { values.append(.null) }
            case .double:
                if let value = reader.double(record: record, field: field) { values.append(.real(value)) } else { values.append(.null) }
            default:
                if let value = reader.string(record: record, field: field) { values.append(.text(value)) } else { values.append(.null) }
            }
        }
        return values
    }
}
