import Foundation
import Travel411TestSupport
import XCTest

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411Shapefile
@testable import Travel411Store

/// The importer on the real Data/ (through the shared TestPlaces database), on small shapefiles the tests
/// write, and on damaged input, which must fail naming the file and leave the previous database untouched.
final class ImporterTests: XCTestCase {
    private static let ogrinfo = "/usr/bin/ogrinfo"

    /// Every shapefile of Data/ by table name, with its feature count (Data/README.md lists the same).
    private static let expectedLayers: [String: (level: String, features: Int)] = [
        "ne_10m_admin_0_countries": ("country", 258),
        "ne_10m_admin1": ("admin", 4853),
        "london_boroughs": ("district", 33),
        "geonames_cities1000": ("locality", 155_210),
        "geonames_cities500_fill": ("locality", 22_531),
        "rutland_gis_osm_places_free_1": ("locality", 301),
        "london_osmplotr_highways": ("thoroughfare", 1133),
        "london_osm2streets_highways": ("thoroughfare", 318),
        "rutland_gis_osm_roads_free_1": ("thoroughfare", 6665),
        "helsinki_osm_highways": ("thoroughfare", 2504),
        "london_fitzrovia_highways": ("thoroughfare", 286),
        "codepoint_open_london": ("postcode", 227_732),
        "london_osm_addresses": ("address", 726),
        "iana_time_zones": ("timezone", 444),
        "ne_10m_time_zones": ("timezone-band", 120),
        "ne_10m_geography_marine_polys": ("water", 307),
        "ne_10m_lakes": ("water", 1354),
        "ne_10m_airports": ("airport", 891),
        "ne_50m_admin_0_countries": ("basemap", 241),
        "ne_110m_admin_0_countries": ("basemap", 177),
    ]

    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TestShapefileWriter.makeTemporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Helpers

    private func databasePath(_ name: String = "places.gpkg") -> String {
        directory.appendingPathComponent(name).path
    }

    @discardableResult
    private func importFiles(_ files: [URL], into database: String, level: PlaceLevel? = nil, nameField: String? = nil) throws
        -> ImportSummary
    {
        try Importer(options: ImportOptions(paths: files, databasePath: database, level: level, nameField: nameField)).run()
    }

    private func sha256(_ path: String) throws -> String {
        try SourceChecksum.sha256Hex(ofFiles: [URL(fileURLWithPath: path)])
    }

    private func assertContains(_ text: String, _ parts: String..., file: StaticString = #filePath, line: UInt = #line) {
        for part in parts {
            XCTAssertTrue(text.contains(part), "“\(text)” lacks “\(part)”", file: file, line: line)
        }
    }

    /// Five named two-point lines in a layout the importer does not know.
    private func writeUnknownRoads(name: String = "roads") throws -> URL {
        try TestShapefileWriter.write(
            directory: directory, name: name, kind: .polyline, fields: [.string("STREETNAM"), .integer("LANES")],
            records: (1...5).map { index in
                let x = 10 + Double(index) * 0.01
                return .shape([TestShapefileWriter.points([(x, 50), (x, 50.005)])], values: [.text("Test Street \(index)"), .integer(2)])
            })
    }

    /// A small database at `path`, as a previous import would have left it.
    private func writeExistingDatabase(at path: String) throws {
        let roads = try writeUnknownRoads(name: "existing_roads")
        try importFiles([roads], into: path, level: .thoroughfare, nameField: "STREETNAM")
    }

    /// Runs an import expected to fail and checks that its message names `parts`, that the database that was
    /// already at the target kept every byte, and that no half-built temporary file was left beside it.
    private func assertImportFailsLeavingDatabaseUnchanged(
        _ files: [URL], level: PlaceLevel? = nil, nameField: String? = nil, naming parts: [String],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let target = databasePath()
        try writeExistingDatabase(at: target)
        let before = try sha256(target)
        XCTAssertThrowsError(try importFiles(files, into: target, level: level, nameField: nameField), file: file, line: line) { error in
            let message = (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
            for part in parts {
                XCTAssertTrue(message.contains(part), "“\(message)” lacks “\(part)”", file: file, line: line)
            }
        }
        XCTAssertEqual(try sha256(target), before, "the previous database changed", file: file, line: line)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".places.gpkg") }
        XCTAssertEqual(leftovers, [], "temporary files left behind", file: file, line: line)
    }

    private func sidecar(_ shp: URL, _ fileExtension: String) -> URL {
        shp.deletingPathExtension().appendingPathExtension(fileExtension)
    }

    private func readBigEndianInt32(_ url: URL, at offset: Int) throws -> Int32 {
        let data = try Data(contentsOf: url)
        return data[offset..<offset + 4].reduce(0) { $0 << 8 | Int32($1) }
    }

    private func overwrite<T: FixedWidthInteger>(_ url: URL, at offset: Int, with value: T) throws {
        var data = try Data(contentsOf: url)
        withUnsafeBytes(of: value) { data.replaceSubrange(offset..<offset + MemoryLayout<T>.size, with: $0) }
        try data.write(to: url)
    }

    // MARK: The real Data/

    func testTheDefaultDatabaseHasEveryLayerWithItsFeatureCount() throws {
        let database = try SQLiteDatabase(path: TestPlaces.databasePath, mode: .readOnly)
        let tables = try database.query("SELECT table_name FROM gpkg_contents WHERE data_type = 'features'").compactMap {
            $0[0].stringValue
        }
        XCTAssertEqual(Set(tables), Set(Self.expectedLayers.keys))
        XCTAssertEqual(tables.count, 20)
        for (table, expected) in Self.expectedLayers {
            let count = try database.query("SELECT COUNT(*) FROM \"\(table)\"").first?.first?.int64Value
            XCTAssertEqual(count, Int64(expected.features), table)
        }
    }

    func testEverySourceIsRecordedWithItsChecksumAndCounts() throws {
        let database = try SQLiteDatabase(path: TestPlaces.databasePath, mode: .readOnly)
        let rows = try database.query("SELECT layer, level, path, sha256, feature_count, skipped_count FROM travel411_sources")
        XCTAssertEqual(rows.count, 20, "one row per shapefile")
        XCTAssertEqual(Set(rows.compactMap { $0[0].stringValue }), Set(Self.expectedLayers.keys))
        let hexDigits = Set("0123456789abcdef")
        for row in rows {
            let layer = row[0].stringValue ?? "?"
            guard let expected = Self.expectedLayers[layer] else { continue }
            XCTAssertEqual(row[1].stringValue, expected.level, layer)
            XCTAssertTrue(row[2].stringValue?.hasSuffix("/\(layer).shp") == true, "\(layer): path \(row[2])")
            let checksum = row[3].stringValue ?? ""
            XCTAssertEqual(checksum.count, 64, "\(layer): \(checksum)")
            XCTAssertTrue(checksum.allSatisfy(hexDigits.contains), "\(layer): \(checksum)")
            XCTAssertEqual(row[4].int64Value, Int64(expected.features), layer)
            XCTAssertEqual(row[5].int64Value, 0, "\(layer): Data/ has no null or broken shapes")
        }
        // The checksum covers the layer's files: the countries layer's is that of its five files in order.
        let countries = try EmbeddedData.locate().appendingPathComponent("countries/ne_10m_admin_0_countries.shp")
        let recorded = rows.first { $0[0].stringValue == "ne_10m_admin_0_countries" }?[3].stringValue
        XCTAssertEqual(recorded, try SourceChecksum.sha256Hex(ofFiles: ShapefileDiscovery.componentFiles(of: countries)))
    }

    func testOgrinfoReadsEveryLayerWithoutErrors() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.ogrinfo) else { throw XCTSkip("ogrinfo is not installed") }
        let output = try runProcess(Self.ogrinfo, ["-ro", "-so", "-al", TestPlaces.databasePath])
        XCTAssertEqual(output.status, 0, output.combined)
        XCTAssertFalse(output.combined.contains("ERROR"), output.combined)

        var featureCounts: [String: Int] = [:]
        var layer: String?
        for line in output.standardOutput.split(separator: "\n") {
            if line.hasPrefix("Layer name: ") {
                layer = String(line.dropFirst("Layer name: ".count))
            } else if let current = layer, line.hasPrefix("Feature Count: ") {
                featureCounts[current] = Int(line.dropFirst("Feature Count: ".count))
            }
        }
        for (table, expected) in Self.expectedLayers {
            XCTAssertEqual(featureCounts[table], expected.features, table)
        }
        XCTAssertEqual(featureCounts["travel411_sources"], 20)
    }

    /// Each lookup structure is built as soon as its last layer is read, and some wait for others: the
    /// countries for the time zones (overseas territories), the localities for the countries and admin
    /// areas they lie in. Whichever order the layers come in, the same tables result.
    func testTheLookupTablesDoNotDependOnTheOrderOfTheLayers() throws {
        let data = try EmbeddedData.locate()
        let layers = [
            "countries/ne_10m_admin_0_countries.shp", "admin1/ne_10m_admin1.shp",
            "localities/rutland_gis_osm_places_free_1.shp", "timezones/iana_time_zones.shp",
        ].map { data.appendingPathComponent($0) }
        let zonesLast = try importFiles(layers, into: databasePath("zones-last.gpkg"))
        let zonesFirst = try importFiles(layers.reversed(), into: databasePath("zones-first.gpkg"))
        XCTAssertTrue(zonesLast.territories.contains { $0.hasPrefix("French Guiana (GF)") }, "\(zonesLast.territories)")
        XCTAssertEqual(zonesFirst.territories, zonesLast.territories)
        XCTAssertEqual(zonesFirst.contradictedLabels, zonesLast.contradictedLabels)

        let tables = [
            "travel411_areas": "level, feature", "travel411_area_tiles": "key", "travel411_pages": "key",
            "travel411_point_indexes": "level", "travel411_line_indexes": "level", "travel411_localities": "id",
        ]
        let first = try SQLiteDatabase(path: databasePath("zones-first.gpkg"), mode: .readOnly)
        let last = try SQLiteDatabase(path: databasePath("zones-last.gpkg"), mode: .readOnly)
        for (table, order) in tables {
            let query = "SELECT * FROM \(table) ORDER BY \(order)"
            let rows = try last.query(query)
            XCTAssertFalse(rows.isEmpty, table)
            XCTAssertTrue(try first.query(query) == rows, "\(table) differs")
        }
    }

    // MARK: Layouts

    func testAnUnknownLayoutAsksForLevelAndNameField() throws {
        let roads = try writeUnknownRoads()
        XCTAssertThrowsError(try importFiles([roads], into: databasePath())) { error in
            assertContains(String(describing: error), roads.path, "does not know this layout", "--level", "--name-field", "STREETNAM")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath()), "nothing written for a refused import")
    }

    func testAnUnknownLayoutImportsOnceMapped() throws {
        let roads = try writeUnknownRoads()
        let summary = try importFiles([roads], into: databasePath(), level: .thoroughfare, nameField: "STREETNAM")
        XCTAssertEqual(summary.layers.count, 1)
        XCTAssertEqual(summary.layers.first?.level, .thoroughfare)
        XCTAssertEqual(summary.layers.first?.features, 5)
        XCTAssertEqual(summary.layers.first?.skipped, 0)

        // The street index answers with the mapped field: 10.03 is the third line, 0.0001° ≈ 7 m away.
        let geocoder = try ReverseGeocoder(databasePath: databasePath())
        XCTAssertEqual(geocoder.placemark(for: Coordinate(latitude: 50.002, longitude: 10.0301)).thoroughfare, "Test Street 3")
        XCTAssertNil(geocoder.placemark(for: Coordinate(latitude: 51, longitude: 10)).thoroughfare)
    }

    /// A country layer in a layout of its own must still give placemarks a country code (from a field with a
    /// usual alpha-2 name, upper-cased), which the locality rules need: without it a mapped country layer
    /// never yields a locality.
    func testAMappedCountryLayerGivesCountryCodesAndLocalities() throws {
        let square = TestShapefileWriter.points([(10, 40), (10, 41), (11, 41), (11, 40), (10, 40)])
        let countries = try TestShapefileWriter.write(
            directory: directory, name: "gadm_level0", kind: .polygon, fields: [.string("COUNTRY"), .string("ISO2", width: 2)],
            records: [.shape([square], values: ["Squareland", "sq"])])
        let towns = try TestShapefileWriter.write(
            directory: directory, name: "towns", kind: .point,
            fields: [.string("name"), .string("admin1"), .string("cc", width: 2), .integer("population")],
            records: [.point(x: 10.5, y: 40.5, values: ["Squaretown", "01", "SQ", 50_000])])
        try importFiles([countries, towns], into: databasePath(), level: .country, nameField: "COUNTRY")

        let placemark = try ReverseGeocoder(databasePath: databasePath()).placemark(for: Coordinate(latitude: 40.51, longitude: 10.51))
        XCTAssertEqual(placemark.country, "Squareland")
        XCTAssertEqual(placemark.isoCountryCode, "SQ")
        XCTAssertEqual(placemark.locality, "Squaretown")
    }

    func testAMappingThatDoesNotFitTheFileIsRefused() throws {
        let roads = try writeUnknownRoads()
        XCTAssertThrowsError(try importFiles([roads], into: databasePath(), level: .thoroughfare)) { error in
            assertContains(String(describing: error), roads.path, "--level thoroughfare also needs --name-field")
        }
        XCTAssertThrowsError(try importFiles([roads], into: databasePath(), level: .thoroughfare, nameField: "NAME")) { error in
            assertContains(String(describing: error), roads.path, "field 'NAME' given by --name-field does not exist", "STREETNAM")
        }
        XCTAssertThrowsError(try importFiles([roads], into: databasePath(), level: .country, nameField: "STREETNAM")) { error in
            assertContains(String(describing: error), roads.path, "--level country needs polygon geometry")
        }
    }

    /// The example in the message should name a field that can hold names, not whatever comes first.
    func testTheSuggestedNameFieldIsATextField() throws {
        let square = [TestShapefileWriter.points([(1, 1), (1, 2), (2, 2), (2, 1), (1, 1)])]
        let labelled = try TestShapefileWriter.write(
            directory: directory, name: "labelled", kind: .polygon, fields: [.double("AREA"), .integer("ID"), .string("LABEL")],
            records: [.shape(square, values: [1.0, 1, "One"])])
        XCTAssertThrowsError(try importFiles([labelled], into: databasePath())) { error in
            assertContains(String(describing: error), "--level admin --name-field LABEL")
        }
        let named = try TestShapefileWriter.write(
            directory: directory, name: "named", kind: .polygon, fields: [.double("AREA"), .string("CODE"), .string("NAME_EN")],
            records: [.shape(square, values: [1.0, "X1", "One"])])
        XCTAssertThrowsError(try importFiles([named], into: databasePath())) { error in
            assertContains(String(describing: error), "--level admin --name-field NAME_EN")
        }
    }

    /// shapelib and the reader accept ROADS.SHP with ROADS.SHX and ROADS.DBF; the checksum must cover those
    /// files too, or a changed table would look unchanged (and an all-upper-case layer hashed nothing at all).
    func testTheChecksumCoversUpperCaseFileNames() throws {
        let roads = try writeUnknownRoads(name: "ROADS")
        var upperCaseFiles: [URL] = []
        for fileExtension in ["shp", "shx", "dbf", "prj", "cpg"] {
            let upper = roads.deletingPathExtension().appendingPathExtension(fileExtension.uppercased())
            try FileManager.default.moveItem(at: sidecar(roads, fileExtension), to: upper)
            upperCaseFiles.append(upper)
        }
        try importFiles([upperCaseFiles[0]], into: databasePath(), level: .thoroughfare, nameField: "STREETNAM")
        let database = try SQLiteDatabase(path: databasePath(), mode: .readOnly)
        let recorded = try database.query("SELECT sha256 FROM travel411_sources").first?.first?.stringValue
        XCTAssertEqual(recorded, try SourceChecksum.sha256Hex(ofFiles: upperCaseFiles))
        XCTAssertNotEqual(recorded, try SourceChecksum.sha256Hex(ofFiles: []), "the checksum of no bytes at all")
    }

    /// Archives made on a Mac carry AppleDouble companions such as `._roads.shp` next to the real files;
    /// they are not shapefiles, and a folder import must not fail on them.
    func testHiddenFilesInAFolderAreNotImported() throws {
        let folder = directory.appendingPathComponent("unzipped")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let roads = try writeUnknownRoads()
        for fileExtension in ["shp", "shx", "dbf", "prj", "cpg"] {
            try FileManager.default.moveItem(at: sidecar(roads, fileExtension), to: folder.appendingPathComponent("roads.\(fileExtension)"))
        }
        let appleDouble = Data([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00] + Array(repeating: 0, count: 74))
        try appleDouble.write(to: folder.appendingPathComponent("._roads.shp"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("__MACOSX"), withIntermediateDirectories: true)
        try appleDouble.write(to: folder.appendingPathComponent("__MACOSX/._roads.shp"))

        let summary = try importFiles([folder], into: databasePath(), level: .thoroughfare, nameField: "STREETNAM")
        XCTAssertEqual(summary.layers.map(\.table), ["roads"])
        XCTAssertEqual(summary.featureCount, 5)
    }

    func testNullShapesAreSkippedAndCounted() throws {
        let towns = try TestShapefileWriter.write(
            directory: directory, name: "towns", kind: .point,
            fields: [.string("name"), .string("admin1"), .string("cc", width: 2), .integer("population")],
            records: [
                .point(x: 2.35, y: 48.86, values: ["Paris", "11", "FR", 2_100_000]),
                .null(values: ["Nowhere", "11", "FR", 10]),
                .point(x: 4.84, y: 45.76, values: ["Lyon", "84", "FR", 520_000]),
                .null(values: ["Nowhere either", nil, nil, nil]),
            ])
        let summary = try importFiles([towns], into: databasePath())
        let layer = try XCTUnwrap(summary.layers.first)
        XCTAssertEqual(layer.layout, "GeoNames places")
        XCTAssertEqual(layer.features, 2)
        XCTAssertEqual(layer.skipped, 2)
        XCTAssertEqual(layer.skipReasons, ["null shape": 2])

        let database = try SQLiteDatabase(path: databasePath(), mode: .readOnly)
        let source = try database.query("SELECT feature_count, skipped_count, skipped_reasons FROM travel411_sources").first
        XCTAssertEqual(source, [.integer(2), .integer(2), .text("2 null shape")])
        XCTAssertEqual(try database.query("SELECT name FROM towns ORDER BY fid").compactMap { $0[0].stringValue }, ["Paris", "Lyon"])
    }

    /// Records the reader cannot use are skipped and counted by reason, not one reason per record: a layer
    /// with thousands of bad records must not print thousands of lines.
    func testUnusableShapesAreCountedByReason() throws {
        let square = TestShapefileWriter.points([(1, 1), (1, 2), (2, 2), (2, 1), (1, 1)])
        let flat = TestShapefileWriter.points([(1, 1), (2, 2), (3, 3), (1, 1)])
        let country = try TestShapefileWriter.write(
            directory: directory, name: "flat_country", kind: .polygon,
            fields: [.string("ADMIN"), .string("ADM0_A3", width: 3), .string("ISO_A2", width: 2)],
            records: [.shape([square], values: ["Squareland", "SQL", "SQ"])]
                + (1...3).map { _ in .shape([flat], values: ["Flatland", "FLT", "FL"]) }
                + [.null(values: ["Nowhere", "NOW", "NW"])])
        let layer = try XCTUnwrap(try importFiles([country], into: databasePath()).layers.first)
        XCTAssertEqual(layer.features, 1)
        XCTAssertEqual(layer.skipped, 4)
        XCTAssertEqual(layer.skipReasons, ["the polygon has no ring with 4 or more points and an area": 3, "null shape": 1])
    }

    /// Layers with no records (an extract of an empty area) import as empty tables, and the geocoder
    /// opens the result and answers with nothing rather than failing.
    func testEmptyLayersImportAndAnswerNothing() throws {
        let towns = try TestShapefileWriter.write(
            directory: directory, name: "towns", kind: .point,
            fields: [.string("name"), .string("admin1"), .string("cc", width: 2), .integer("population")], records: [])
        let countries = try TestShapefileWriter.write(
            directory: directory, name: "countries", kind: .polygon,
            fields: [.string("ADMIN"), .string("ADM0_A3", width: 3), .string("ISO_A2", width: 2)], records: [])
        let roads = try TestShapefileWriter.write(
            directory: directory, name: "roads", kind: .polyline, fields: [.string("name"), .string("highway")], records: [])
        let summary = try importFiles([towns, countries, roads], into: databasePath())
        XCTAssertEqual(summary.layers.map(\.features), [0, 0, 0])
        XCTAssertEqual(Set(summary.layers.map(\.level)), [.locality, .country, .thoroughfare])

        let geocoder = try ReverseGeocoder(databasePath: databasePath())
        let placemark = geocoder.placemark(for: Coordinate(latitude: 51.5, longitude: -0.12))
        XCTAssertEqual(placemark, Placemark(location: Coordinate(latitude: 51.5, longitude: -0.12)))
    }

    /// Two outer rings (clockwise, as shapefiles want them), the first with a hole (counter-clockwise). The
    /// large square spans whole 1° cells, so both the index's uniform cells and its tiles are exercised.
    func testAMultiPartPolygonWithAHoleAnswersInsideHoleAndOutside() throws {
        let mainland = TestShapefileWriter.points([(10, 10), (10, 14), (14, 14), (14, 10), (10, 10)])
        let lake = TestShapefileWriter.points([(11, 11), (13, 11), (13, 13), (11, 13), (11, 11)])
        let island = TestShapefileWriter.points([(20.2, 20.2), (20.2, 20.4), (20.4, 20.4), (20.4, 20.2), (20.2, 20.2)])
        let country = try TestShapefileWriter.write(
            directory: directory, name: "holey_country", kind: .polygon,
            fields: [.string("ADMIN"), .string("ADM0_A3", width: 3), .string("ISO_A2", width: 2)],
            records: [.shape([mainland, lake, island], values: ["Holeyland", "HLY", "HL"])])
        let summary = try importFiles([country], into: databasePath())
        XCTAssertEqual(summary.layers.first?.level, .country)
        XCTAssertEqual(summary.layers.first?.features, 1)

        // The exact polygon test alone: no snapping of points near a coast to the land around them.
        var exact = GeocoderSettings()
        exact.coastalSnapMetres = 0
        let geocoder = try ReverseGeocoder(databasePath: databasePath(), settings: exact)
        func countryName(_ latitude: Double, _ longitude: Double) -> String? {
            geocoder.placemark(for: Coordinate(latitude: latitude, longitude: longitude)).country
        }
        for (latitude, longitude) in [(10.5, 10.5), (13.5, 13.9), (12, 10.95), (12, 13.05), (10.01, 13.99), (20.3, 20.3), (20.21, 20.39)] {
            XCTAssertEqual(countryName(latitude, longitude), "Holeyland", "(\(latitude), \(longitude)) is on land")
        }
        XCTAssertEqual(geocoder.placemark(for: Coordinate(latitude: 10.5, longitude: 10.5)).isoCountryCode, "HL")
        for (latitude, longitude) in [(12, 12), (11.05, 11.05), (12.95, 12.95), (12, 11.05), (12, 12.95)] {
            XCTAssertNil(countryName(latitude, longitude), "(\(latitude), \(longitude)) is in the hole")
        }
        for (latitude, longitude) in [(9.99, 12), (14.01, 12), (15, 15), (20.5, 20.5), (20.3, 20.1), (-12, -12), (0, 0)] {
            XCTAssertNil(countryName(latitude, longitude), "(\(latitude), \(longitude)) is outside")
        }

        // With the default settings a point just off the coast, or in the lake, takes the land around it;
        // open sea does not.
        let snapping = try ReverseGeocoder(databasePath: databasePath())
        XCTAssertEqual(snapping.placemark(for: Coordinate(latitude: 14.01, longitude: 12)).country, "Holeyland")
        XCTAssertEqual(snapping.placemark(for: Coordinate(latitude: 11.05, longitude: 11.05)).country, "Holeyland")
        XCTAssertNil(
            snapping.placemark(for: Coordinate(latitude: 12, longitude: 12)).country, "the middle of the lake is over 20 km from its shore")
        XCTAssertNil(snapping.placemark(for: Coordinate(latitude: 15, longitude: 15)).country)
        XCTAssertNil(snapping.placemark(for: Coordinate(latitude: 0, longitude: 0)).country)
    }

    // MARK: Damaged input

    func testATruncatedShpFailsNamingFileAndRecord() throws {
        let roads = try writeUnknownRoads()
        let data = try Data(contentsOf: roads)
        try data.prefix(data.count - 10).write(to: roads)
        try assertImportFailsLeavingDatabaseUnchanged(
            [roads], level: .thoroughfare, nameField: "STREETNAM", naming: [roads.path, "record 5", "truncated"])
    }

    func testAShxOffsetPastTheEndFailsNamingFileAndRecord() throws {
        let roads = try writeUnknownRoads()
        try overwrite(sidecar(roads, "shx"), at: 100 + 2 * 8, with: Int32(1_000_000).bigEndian)
        try assertImportFailsLeavingDatabaseUnchanged(
            [roads], level: .thoroughfare, nameField: "STREETNAM", naming: [sidecar(roads, "shx").path, "record 3"])
    }

    func testAMissingDbfFailsNamingIt() throws {
        let roads = try writeUnknownRoads()
        try FileManager.default.removeItem(at: sidecar(roads, "dbf"))
        try assertImportFailsLeavingDatabaseUnchanged(
            [roads], level: .thoroughfare, nameField: "STREETNAM", naming: [sidecar(roads, "dbf").path, "missing"])
    }

    func testABritishNationalGridPrjFailsNamingIt() throws {
        let boroughs = URL(fileURLWithPath: ShapefileFixtures.path("projected", "london_boroughs_bng"))
        try assertImportFailsLeavingDatabaseUnchanged(
            [boroughs], naming: ["london_boroughs_bng.prj", "British_National_Grid", "EPSG:4326"])
    }

    /// A record that only fails when it is read, after the import has started writing: the half-built
    /// database must go, and the old one stay. A good file comes first so that real work is thrown away.
    func testARecordThatFailsWhileWritingLeavesTheOldDatabase() throws {
        let good = try writeUnknownRoads(name: "good_roads")
        let roads = try writeUnknownRoads()
        // Point record 2's only part past its two vertices: the .shx still matches, shapelib refuses the record.
        let recordOffset = Int(try readBigEndianInt32(sidecar(roads, "shx"), at: 100 + 1 * 8)) * 2
        try overwrite(roads, at: recordOffset + 8 + 4 + 32 + 4 + 4, with: Int32(7).littleEndian)
        let target = databasePath()
        try writeExistingDatabase(at: target)
        let before = try sha256(target)
        XCTAssertThrowsError(try importFiles([good, roads], into: target, level: .thoroughfare, nameField: "STREETNAM")) { error in
            assertContains(String(describing: error), roads.path, "record 2")
        }
        XCTAssertEqual(try sha256(target), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".places.gpkg") }, [])
    }
}
