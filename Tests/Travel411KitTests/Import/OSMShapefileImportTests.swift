import Foundation
import Testing
import Travel411OSMReader
import Travel411Store

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import

/// The shapefile route to OpenStreetMap data: GDAL's OSM layers (truncated `addr_*` columns, the `other_tags`
/// hstore cut at 254 bytes), Geofabrik's free layers, one `--level` per file, duplicate inputs and
/// `import --append`. The fixtures are real: GDAL 3.6's ogr2ogr run on the Helsinki and Liechtenstein extracts
/// (Tests/Fixtures/SOURCES.md says how).
@Suite struct OSMShapefileImportTests {
    static let fixtures = ShapefileFixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/osm")
    static func gdal(_ name: String) -> URL { fixtures.appendingPathComponent("gdal/\(name).shp") }
    static func geofabrik(_ name: String) -> URL { fixtures.appendingPathComponent("geofabrik/\(name).shp") }

    /// A scratch folder, removed when the test's value goes.
    final class Scratch: Sendable {
        let folder: URL
        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("osm-shp-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    }

    static func layer(_ summary: ImportSummary, _ table: String) throws -> ImportedLayer {
        try #require(summary.layers.first { $0.table == table }, "no layer \(table) in \(summary.layers.map(\.table))")
    }

    static func unused(_ layer: ImportedLayer) -> Int {
        layer.skipReasons.filter { $0.key.hasPrefix("kept") }.values.reduce(0, +)
    }

    /// Without a reader (`ImportOptions.extractReader`, as `travel411` imports) an extract is refused before anything
    /// is written, with the error `travel411` hands the import over to travel411-tools on.
    @Test func anExtractWithoutAReaderIsRefusedBeforeWriting() throws {
        let scratch = try Scratch()
        let options = ImportOptions(
            paths: [Self.gdal("helsinki_lines"), OSMExtractImportTests.liechtenstein], databasePath: scratch.path("no-reader.gpkg"))
        #expect(throws: ExtractReaderMissing.self) { try Importer(options: options).run() }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("no-reader.gpkg")))
    }

    /// An extract's layers are told by their tags: `--level EXTRACT=…` would be ignored, so it is refused.
    @Test func aLevelForAnExtractIsRefused() throws {
        let scratch = try Scratch()
        var options = ImportOptions(
            paths: [OSMExtractImportTests.liechtenstein], databasePath: scratch.path("level.gpkg"), extractReader: .libosmium)
        options.fileLevels = [FileOption(file: "liechtenstein-2013-08-03.osm.pbf", value: .admin)]
        #expect {
            try Importer(options: options).run()
        } throws: { error in
            "\(error)".contains("liechtenstein-2013-08-03.osm.pbf is an OpenStreetMap extract, whose layers are told by their tags")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("level.gpkg")))
    }

    /// `--level` for every file maps only unknown layouts: with none among the inputs it is said to have mapped nothing.
    @Test func aLevelThatMapsNothingIsSaid() throws {
        let scratch = try Scratch()
        var options = ImportOptions(
            paths: [OSMExtractImportTests.liechtenstein], databasePath: scratch.path("unused.gpkg"), extractReader: .libosmium)
        options.level = .admin
        options.nameField = "NAME"
        let summary = try Importer(options: options).run()
        #expect(
            summary.warnings.contains("--level admin mapped no file: every input's layout is a known one, or an OpenStreetMap extract's"))
    }

    @Test func gdalLayersAreRecognisedWithTheirAddresses() throws {
        let scratch = try Scratch()
        let summary = try Importer(
            options: ImportOptions(
                paths: ["helsinki_points", "helsinki_address_points", "helsinki_lines", "helsinki_multipolygons"].map(Self.gdal),
                databasePath: scratch.path("gdal.gpkg"), extractReader: .libosmium)
        ).run()
        let points = try Self.layer(summary, "helsinki_points")
        #expect(points.layout == "GDAL OpenStreetMap points")
        #expect(points.level == .address)
        // 138 of the 516 points carry addr:housenumber in other_tags; one of them lies past the 254-byte cut.
        #expect(points.features == 516)
        #expect(points.features - Self.unused(points) == 137)
        let columns = try Self.layer(summary, "helsinki_address_points")
        #expect(columns.layout == "GDAL OpenStreetMap points with address columns")
        // With addr:* as columns (addr_house, addr_stree, addr_postc) none is lost: 140 house numbers.
        #expect(columns.features - Self.unused(columns) == 140)
        let lines = try Self.layer(summary, "helsinki_lines")
        #expect(lines.layout == "GDAL OpenStreetMap lines")
        #expect(lines.level == .thoroughfare)
        #expect(lines.features == 279)
        #expect(lines.skipReasons["kept in the layer but not used for lookups: no highway"] == 94)
        let buildings = try Self.layer(summary, "helsinki_multipolygons")
        #expect(buildings.layout == "GDAL OpenStreetMap multipolygons (addresses of buildings)")
        #expect(buildings.features - Self.unused(buildings) == 8)
    }

    /// Kaivokatu 10 is a building (way 23648033) with its address on the outline: its point on the surface
    /// answers with its number, its street and its postcode.
    @Test func aBuildingsAddressAnswersInsideIt() throws {
        let scratch = try Scratch()
        let database = scratch.path("buildings.gpkg")
        _ = try Importer(
            options: ImportOptions(paths: [Self.gdal("helsinki_multipolygons")], databasePath: database, extractReader: .libosmium)
        ).run()
        let geocoder = try ReverseGeocoder(databasePath: database)
        let placemark = geocoder.placemark(for: Coordinate(latitude: 60.16994, longitude: 24.94056))
        #expect(placemark.subThoroughfare == "10")
        #expect(placemark.thoroughfare == "Kaivokatu")
        #expect(placemark.postalCode == "00100")
    }

    @Test func otherTagsAreReadUpToTheCut() {
        let text = #""addr:city"=>"Helsinki","addr:housenumber"=>"1","name:sv"=>"Järnvägs\"stationen","website"=>"https://www.vrgr"#
        #expect(OSMOtherTags.value(of: "addr:housenumber", in: text) == "1")
        #expect(OSMOtherTags.value(of: "name:sv", in: text) == "Järnvägs\"stationen")
        // The pair cut off at 254 bytes is not read as a value.
        #expect(OSMOtherTags.value(of: "website", in: text) == nil)
        #expect(OSMOtherTags.pairs(in: text).count == 3)
        #expect(OSMOtherTags.pairs(in: "").isEmpty)
        #expect(OSMOtherTags.pairs(in: "\"a\"=>").isEmpty)
    }

    @Test func geofabrikFreeLayersAreRecognised() throws {
        let scratch = try Scratch()
        let summary = try Importer(
            options: ImportOptions(
                paths: [Self.fixtures.appendingPathComponent("geofabrik")], databasePath: scratch.path("geofabrik.gpkg"),
                extractReader: .libosmium)
        ).run()
        let levels = Dictionary(uniqueKeysWithValues: summary.layers.map { ($0.table, ($0.level, $0.features)) })
        #expect(levels["gis_osm_pois_free_1"]?.0 == .poi)
        #expect(levels["gis_osm_pois_free_1"]?.1 == 62)
        #expect(levels["gis_osm_buildings_a_free_1"]?.0 == .building)
        #expect(levels["gis_osm_buildings_a_free_1"]?.1 == 98)
        #expect(levels["gis_osm_landuse_a_free_1"]?.0 == .landuse)
        #expect(levels["gis_osm_landuse_a_free_1"]?.1 == 19)
        #expect(levels["gis_osm_water_a_free_1"]?.0 == .water)
        #expect(levels["gis_osm_water_a_free_1"]?.1 == 26)
        // A water polygon is the inlandWater of a point inside it: the Gampriner Seele, a lake in Gamprin.
        let geocoder = try ReverseGeocoder(databasePath: scratch.path("geofabrik.gpkg"))
        #expect(geocoder.placemark(for: Coordinate(latitude: 47.22504, longitude: 9.50911)).inlandWater == "Gampriner Seele")
    }

    /// `--level FILE=LEVEL` maps one file; the other unknown file of the run is still refused.
    @Test func aLevelForOneFile() throws {
        let scratch = try Scratch()
        let roads = ShapefileFixtures.path("fiona", "coutwildrnp")
        var options = ImportOptions(paths: [URL(fileURLWithPath: roads)], databasePath: scratch.path("one.gpkg"), extractReader: .libosmium)
        options.fileLevels = [FileOption(file: "coutwildrnp.shp", value: .admin)]
        options.fileNameFields = [FileOption(file: "coutwildrnp", value: "NAME")]
        let summary = try Importer(options: options).run()
        #expect(summary.layers.map(\.level) == [.admin])
        #expect(summary.layers.first?.layout == "mapped by --level admin --name-field NAME")

        var wrong = options
        wrong.fileLevels = [FileOption(file: "nosuchfile.shp", value: .admin)]
        #expect {
            try Importer(options: wrong).run()
        } throws: { error in
            String(describing: error).contains("--level nosuchfile.shp=…: no input file is called nosuchfile.shp")
        }
    }

    /// A file given twice under two names is read once, with a warning.
    @Test func aDuplicateInputIsImportedOnce() throws {
        let scratch = try Scratch()
        let copy = scratch.folder.appendingPathComponent("copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for ext in ["shp", "shx", "dbf", "prj", "cpg"] {
            try FileManager.default.copyItem(
                at: Self.gdal("helsinki_lines").deletingPathExtension().appendingPathExtension(ext),
                to: copy.appendingPathComponent("streets.\(ext)"))
        }
        let summary = try Importer(
            options: ImportOptions(
                paths: [Self.gdal("helsinki_lines"), copy], databasePath: scratch.path("dup.gpkg"), extractReader: .libosmium)
        ).run()
        #expect(summary.layers.map(\.table) == ["helsinki_lines"])
        #expect(
            summary.warnings.contains {
                $0.hasSuffix("streets.shp has the same content as \(Self.gdal("helsinki_lines").path): imported once")
            })
    }

    /// `--append` rebuilds from the old sources and the new file; a source that has gone leaves the database
    /// as it was.
    @Test func appendAddsALayerAndKeepsTheOldOnes() throws {
        let scratch = try Scratch()
        let database = scratch.path("append.gpkg")
        let staged = scratch.folder.appendingPathComponent("buildings.shp")
        for ext in ["shp", "shx", "dbf", "prj", "cpg"] {
            try FileManager.default.copyItem(
                at: Self.gdal("helsinki_multipolygons").deletingPathExtension().appendingPathExtension(ext),
                to: staged.deletingPathExtension().appendingPathExtension(ext))
        }
        _ = try Importer(options: ImportOptions(paths: [staged], databasePath: database, extractReader: .libosmium)).run()
        var append = ImportOptions(paths: [Self.gdal("helsinki_lines")], databasePath: database, extractReader: .libosmium)
        append.append = true
        let summary = try Importer(options: append).run()
        #expect(summary.layers.map(\.table).sorted() == ["buildings", "helsinki_lines"])
        let placemark = try ReverseGeocoder(databasePath: database).placemark(for: Coordinate(latitude: 60.16994, longitude: 24.94056))
        #expect(placemark.subThoroughfare == "10")

        // Appending the same file again reads it once.
        let again = try Importer(options: append).run()
        #expect(again.layers.count == 2)
        #expect(again.warnings.contains { $0.contains("helsinki_lines.shp is already in") })

        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        try FileManager.default.removeItem(at: staged)
        #expect {
            try Importer(options: append).run()
        } throws: { error in
            String(describing: error).contains("which is no longer there")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
    }

    @Test func appendNeedsADatabase() throws {
        let scratch = try Scratch()
        var options = ImportOptions(
            paths: [Self.gdal("helsinki_lines")], databasePath: scratch.path("none.gpkg"), extractReader: .libosmium)
        options.append = true
        #expect {
            try Importer(options: options).run()
        } throws: { error in
            String(describing: error).contains("there is no database at")
        }
    }
}
