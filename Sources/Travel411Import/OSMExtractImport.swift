import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM
import Travel411Store
import Travel411StoreWriters

/// Imports an OpenStreetMap extract (`.osm.pbf` or `.osm`), or several read as one (neighbouring extracts share
/// the objects along their border: each is kept once, by its OSM id, as `OSMExtractReader(paths:)` reads them): each kind of
/// feature the reader finds becomes a feature table of the GeoPackage (`<extract>_streets`, `_addresses`,
/// `_places`, `_boundaries`, …), and feeds the lookups as `OSMLevelMapping` says.
package struct OSMExtractImport {
    /// What reads the files (libosmium's reader, Travel411OSMReader).
    let reader: any OSMExtractReading
    /// The extracts, read as one; never empty.
    let urls: [URL]
    /// Each extract's SHA-256, for travel411_sources.
    let checksums: [String]
    /// Where the node locations go while the extract is read (`OSMExtractReader.nodesFile`); nil: a temporary file.
    var nodesFile: String? = nil
    /// Which feature layers are written (`import --layers`).
    var featureLayers = FeatureLayers.all

    /// What an extract may feed; `LookupTablesWriter` waits for each of them until the extract is read.
    static let inputs = areaInputs + [.locality, .address, .thoroughfare, .postcode]
    /// Its area levels, which the lookups build from the extract alone while its feature tables are indexed.
    static let areaInputs: [LookupCollector.Input] = [.area(.country), .area(.admin), .area(.district), .area(.city), .area(.suburb)]

    static let dataTimestampKey = PlacesSchema.osmDataTimestampKey

    struct Outcome {
        var layers: [ImportedLayer] = []
        var warnings: [String] = []
        /// The countries whose polygon the extract gave (none for a city's extract: its country boundary is cut).
        var countryCodes: Set<String> = []
        /// When the extract's data was current (`OSMReadSummary.dataTimestamp`).
        var dataTimestamp: Date?
        /// Each file's extent of node locations (`OSMReadSummary.fileExtents`).
        var fileExtents: [BoundingBox?] = []
        /// What its layers that were not written covered.
        var unwritten = UnwrittenCoverage()
        /// The tables of those layers, listed in `layers` but not in the GeoPackage.
        var unwrittenTables = Set<String>()
    }

    /// Whether a path names an extract rather than a shapefile: `.osm.pbf`, or `.osm` XML as it is or compressed
    /// as Geofabrik and the planet publish it (`.osm.bz2`, `.osm.gz`); the reader tells the format from the bytes.
    static func isExtract(_ url: URL) -> Bool {
        let name = url.lastPathComponent.lowercased()
        let xml = name.hasSuffix(".gz") ? name.dropLast(3) : name.hasSuffix(".bz2") ? name.dropLast(4) : Substring(name)
        return name.hasSuffix(".pbf") || xml.hasSuffix(".osm") || xml.hasSuffix(".osm.xml")
    }

    /// The extract's name without `.osm.pbf`, `.osm` or `.osm.bz2`, for its tables; several extracts' names joined
    /// (`germany_austria`), or the first's and how many more (`germany_and_5_more`).
    var stem: String {
        let stems = urls.map { url in
            var name = url.lastPathComponent
            for suffix in [".gz", ".bz2", ".pbf", ".xml", ".osm"] where name.lowercased().hasSuffix(suffix) {
                name = String(name.dropLast(suffix.count))
            }
            return name
        }
        return stems.count <= 3 ? stems.joined(separator: "_") : "\(stems[0])_and_\(stems.count - 1)_more"
    }

    /// The files' names, for the progress bar and the warnings.
    private var fileNames: String { urls.map(\.lastPathComponent).joined(separator: ", ") }

    /// `beside` runs the feature tables' spatial indexes and sources, which it is given, while the lookups build
    /// what they can from the extract alone (`LookupTablesWriter.layersRead(feeding:beside:)`).
    func run(
        into geoPackage: GeoPackageWriter, collector: LookupCollector, usedTables: inout Set<String>,
        progress: @escaping (ImportProgress) -> Void, beside: (_ indexing: () throws -> Void) throws -> Void = { try $0() }
    ) throws -> Outcome {
        let started = Date()
        ImportMemoryTrace.note("reading")
        ImportAllocator.givePagesOfTheirOwnToLargeBlocks()
        var tables = OSMFeatureTables(geoPackage: geoPackage, stem: stem, fileName: fileNames, featureLayers: featureLayers)
        try tables.reserveNames(&usedTables)
        // Beside the database being built, as the lookups' sort runs: on its disk, and named after it.
        var mapping = try OSMLevelMapping(collector: collector, temporaryPrefix: geoPackage.database.path + "-osm-")
        var translations = try OSMNamesTable(database: geoPackage.database, temporaryPath: geoPackage.database.path + "-osm-place-names")
        let name = fileNames
        // The bar follows the files' bytes over both passes, in thousandths.
        let summary = try reader.read(
            paths: urls.map(\.path), nodesFile: nodesFile,
            progress: { read in progress(ImportProgress(stage: "reading \(name)", completed: Int(read.fraction * 1000), total: 1000)) }
        ) { feature in
            let (table, fid) = try tables.insert(feature)
            try translations.record(feature)
            try mapping.collect(feature, layer: table, fid: fid)
        }
        // The read's threads are done with what they freed; the steps after it allocate on this thread. (Setting
        // the 1 MB threshold only here, after the read, cut the page faults by 39 % at 600 copies but raised the
        // highest anonymous memory from 245 to 305 MB: docs/import.md.)
        // The tables and the streets wait for the end of the import: their sort buffers wait on disk.
        try tables.seal()
        try collector.sealSorters()
        ImportAllocator.releaseFreeMemory()
        ImportMemoryTrace.note("read")
        progress(ImportProgress(stage: "placing \(name)'s addresses and places", completed: 0, total: 1))
        let fileBoxes = OSMCountryGridLayer.boxes(extent: mapping.extent, fileExtents: summary.fileExtents)
        let grid = try OSMCountryGridLayer.write(meeting: fileBoxes, into: geoPackage, stem: tables.base, usedTables: &usedTables)
        grid?.collect(into: collector)
        try mapping.finish(countryGrid: grid?.pieces.map(\.piece) ?? [], fileBoxes: fileBoxes)
        try mapping.linkedPlaces.writeLinkedFineNodes(into: geoPackage.database)
        ImportMemoryTrace.note("placed")
        try mapping.checkPendingShapes()
        progress(ImportProgress(stage: "placing \(name)'s addresses and places", completed: 1, total: 1))
        let seconds = Date().timeIntervalSince(started)
        var outcome = Outcome()
        outcome.countryCodes = mapping.countryCodes
        outcome.dataTimestamp = summary.dataTimestamp
        outcome.fileExtents = summary.fileExtents
        outcome.unwritten = tables.unwritten
        try beside { try finishTables(tables, unused: mapping.unused, grid: grid, seconds: seconds, into: geoPackage, outcome: &outcome) }
        for (warning, count) in summary.warnings.sorted(by: { $0.key < $1.key }) {
            let examples = (summary.warningExamples[warning] ?? []).map(\.description).joined(separator: ", ")
            outcome.warnings.append("\(fileNames): \(count) \(warning)\(examples.isEmpty ? "" : " (\(examples)…)")")
        }
        return outcome
    }

    /// The feature tables' spatial indexes, and their rows in travel411_sources.
    private func finishTables(
        _ tables: OSMFeatureTables, unused: [OSMFeatureKind: [String: Int]], grid: OSMCountryGridLayer?, seconds: Double,
        into geoPackage: GeoPackageWriter, outcome: inout Outcome
    ) throws {
        for table in try tables.finished() {
            if !table.isWritten { outcome.unwrittenTables.insert(table.name) }
            let reasons = unused[table.kind] ?? [:]
            // One row per extract the table was read from (`import --append` rebuilds from them).
            for (url, sha256) in zip(urls, checksums) {
                try geoPackage.recordSource(
                    SourceRecord(
                        layer: table.name, level: table.kind.level.rawValue, path: url.path, sha256: sha256,
                        featureCount: table.features, skippedCount: 0,
                        skippedReasons: reasons.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: "; "),
                        importSeconds: seconds))
            }
            outcome.layers.append(
                ImportedLayer(
                    path: urls[0].path, table: table.name, layout: "OpenStreetMap \(table.kind.rawValue)", level: table.kind.level,
                    features: table.features, skipped: 0,
                    skipReasons: table.isWritten
                        ? reasons.reduce(into: [:]) { $0["kept in the layer but not used for lookups: \($1.key)"] = $1.value }
                        : ["left out of the GeoPackage (--layers lookups), in the lookups only": table.features],
                    seconds: seconds))
        }
        if let grid {
            let layer = grid.imported
            try geoPackage.recordSource(
                SourceRecord(
                    layer: layer.table, level: layer.level.rawValue, path: layer.path,
                    sha256: try SourceChecksum.sha256Hex(ofFiles: [grid.file]), featureCount: layer.features, skippedCount: 0,
                    skippedReasons: "", importSeconds: layer.seconds))
            outcome.layers.append(layer)
        }
        ImportMemoryTrace.note("feature tables' R-trees")
    }
}

extension OSMFeatureKind {
    /// The level an extract's table of this kind is listed under in the import summary and travel411_sources.
    package var level: PlaceLevel {
        switch self {
        case .street: return .thoroughfare
        case .address, .addressInterpolation: return .address
        case .place: return .locality
        case .adminBoundary: return .admin
        case .postcodeBoundary, .postcodePoint: return .postcode
        case .poi: return .poi
        }
    }

    /// The table's name after the extract's.
    var tableSuffix: String {
        switch self {
        case .street: return "streets"
        case .address: return "addresses"
        case .addressInterpolation: return "interpolations"
        case .place: return "places"
        case .adminBoundary: return "boundaries"
        case .postcodeBoundary: return "postcode_areas"
        case .postcodePoint: return "postcode_points"
        case .poi: return "pois"
        }
    }
}

/// The feature tables of one extract, created when their first feature comes.
struct OSMFeatureTables {
    struct Finished {
        var kind: OSMFeatureKind
        var name: String
        var features: Int
        var isWritten = true
    }

    private let geoPackage: GeoPackageWriter
    private let stem: String
    private let fileName: String
    private var names: [OSMFeatureKind: String] = [:]
    private var writers: [OSMFeatureKind: FeatureTableWriter] = [:]
    private let featureLayers: FeatureLayers
    /// The features of each kind whose layer is not written, counted as the fids it would have given them.
    private var unwrittenCounts: [OSMFeatureKind: Int] = [:]
    private(set) var unwritten = UnwrittenCoverage()

    init(geoPackage: GeoPackageWriter, stem: String, fileName: String, featureLayers: FeatureLayers = .all) {
        self.geoPackage = geoPackage
        self.stem = stem
        self.fileName = fileName
        self.featureLayers = featureLayers
    }

    /// Every kind's table name, unique in the import, decided before any is created.
    /// The tables' common prefix: the extract's name in letters, digits and underscores.
    var base: String {
        let base = String(stem.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
        return base.isEmpty || base.first?.isNumber == true ? "osm_" + base : base
    }

    mutating func reserveNames(_ used: inout Set<String>) throws {
        for kind in OSMFeatureKind.allCases {
            var name = "\(base)_\(kind.tableSuffix)"
            var suffix = 2
            while !used.insert(name).inserted {
                name = "\(base)_\(kind.tableSuffix)_\(suffix)"
                suffix += 1
            }
            names[kind] = name
        }
    }

    package static func columns(_ kind: OSMFeatureKind) -> [FeatureColumn] {
        let common: [FeatureColumn] = [.text("osm_type"), .integer("osm_id"), .text("name"), .text("names")]
        let address: [FeatureColumn] = [
            .text("housenumber"), .text("street"), .text("place"), .text("postcode"), .text("city"),
        ]
        switch kind {
        case .street: return common + [.text("highway"), .text("ref")]
        case .address: return common + address
        case .addressInterpolation: return common + [.text("interpolation"), .text("first_number"), .text("last_number"), .text("street")]
        // `postcode`: the place's own `postal_code` or `addr:postcode` as written, which a neighbourhood node passes on
        // to the streets whose address names it (`ReverseGeocoder.neighbourhoodPostcodeOfStreet`).
        // `landuse`: a named landuse area's value, its `place` empty (`OSMPlace.key`).
        case .place: return common + [.text("place"), .integer("population"), .integer("capital"), .text("postcode"), .text("landuse")]
        // `place`: the boundary's own `place` tag, its key as an answer (`OSMAdministrativeBoundary.place`).
        case .adminBoundary: return common + [.integer("admin_level"), .text("iso3166_1"), .text("iso3166_2"), .text("place")]
        case .postcodeBoundary, .postcodePoint: return common + [.text("postcode")]
        case .poi: return common + [.text("key"), .text("value")] + address
        }
    }

    static func geometryType(_ kind: OSMFeatureKind) -> GeoPackageGeometryType {
        switch kind {
        case .street, .addressInterpolation: return .multiLineString
        case .address, .poi, .postcodePoint: return .point
        case .place: return .geometry
        case .adminBoundary, .postcodeBoundary: return .multiPolygon
        }
    }

    package static func values(_ feature: OSMFeature) -> [SQLValue] {
        func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
        let names = feature.names.isEmpty ? nil : OSMNameList.encoded(feature.names)
        let common: [SQLValue] = [.text(feature.element.type.rawValue), .integer(feature.element.id), text(feature.name), text(names)]
        let a = feature.address
        let address = [text(a?.housenumber), text(a?.street), text(a?.place), text(a?.postcode), text(a?.city)]
        switch feature.kind {
        case .street: return common + [text(feature.highway?.highwayClass), text(feature.highway?.ref)]
        case .address: return common + address
        case .addressInterpolation:
            let i = feature.interpolation
            return common + [text(i?.scheme), text(i?.firstHousenumber), text(i?.lastHousenumber), text(a?.street ?? a?.place)]
        case .place:
            let landuse = feature.place?.key == "landuse" ? feature.place?.type : nil
            return common + [
                text(landuse == nil ? feature.place?.type : nil), feature.place?.population.map { .integer(Int64($0)) } ?? .null,
                .integer(feature.place?.isCapital == true ? 1 : 0), text(a?.postcode), text(landuse),
            ]
        case .adminBoundary:
            let b = feature.adminBoundary
            return common + [b.map { .integer(Int64($0.adminLevel)) } ?? .null, text(b?.iso3166_1), text(b?.iso3166_2), text(b?.place)]
        case .postcodeBoundary, .postcodePoint: return common + [text(feature.postcode)]
        case .poi: return common + [text(feature.pointOfInterest?.key), text(feature.pointOfInterest?.value)] + address
        }
    }

    /// Stores the feature in its kind's table; returns the table and the feature's fid.
    mutating func insert(_ feature: OSMFeature) throws -> (String, Int64) {
        let kind = feature.kind
        let name = names[kind] ?? kind.tableSuffix
        // Addresses and POIs on buildings are stored as the point that stands for them.
        let shape = Self.geometryType(kind) == .point ? .point(feature.representativePoint) : feature.shape
        guard featureLayers.writes(kind) else {
            unwritten.add(shape, isStreet: kind == .street)
            unwrittenCounts[kind, default: 0] += 1
            return (name, Int64(unwrittenCounts[kind] ?? 0))
        }
        let writer: FeatureTableWriter
        if let open = writers[kind] {
            writer = open
        } else {
            writer = try geoPackage.createFeatureTable(
                name, geometryType: Self.geometryType(kind), columns: Self.columns(kind),
                description: "OpenStreetMap \(kind.rawValue) from \(fileName)")
            writers[kind] = writer
        }
        return (name, try writer.insert(shape, values: Self.values(feature)))
    }

    /// Writes out the sort buffers of the tables' spatial indexes while they wait for `finished` (`ExternalSorter.seal`).
    func seal() throws {
        for writer in writers.values { try writer.sealIndexEntries() }
    }

    /// Finishes the tables (their spatial indexes), in the kinds' order.
    func finished() throws -> [Finished] {
        try OSMFeatureKind.allCases.compactMap { kind in
            if let count = unwrittenCounts[kind], let name = names[kind] {
                return Finished(kind: kind, name: name, features: count, isWritten: false)
            }
            guard let writer = writers[kind], let name = names[kind] else { return nil }
            try writer.finish()
            return Finished(kind: kind, name: name, features: writer.featureCount)
        }
    }
}
