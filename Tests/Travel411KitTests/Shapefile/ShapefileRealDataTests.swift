import Travel411Core
import Travel411OSM
import Travel411Shapefile
import XCTest

/// Every shapefile of the embedded default data reads completely, cleanly and with the right text.
final class ShapefileRealDataTests: XCTestCase {
    private func open(_ relativePath: String) throws -> ShapefileReader {
        try ShapefileReader(path: ShapefileFixtures.data.appendingPathComponent(relativePath).path)
    }

    /// The first record whose fields read the given values.
    private func firstRecord(in reader: ShapefileReader, where conditions: KeyValuePairs<String, String>) throws -> Int? {
        let wanted = try conditions.map { (try XCTUnwrap(reader.fieldIndex($0.key), "no field \($0.key)"), $0.value) }
        return (0..<reader.recordCount).first { record in
            wanted.allSatisfy { reader.string(record: record, field: $0.0) == $0.1 }
        }
    }

    func testEveryShapefileReadsWithoutWarningsOrInvalidRecords() throws {
        let shapefiles = try FileManager.default.subpathsOfDirectory(atPath: ShapefileFixtures.data.path)
            .filter { $0.hasSuffix(".shp") }.sorted()
        XCTAssertEqual(shapefiles.count, 20)
        let pointFolders: Set = ["localities", "postcodes", "addresses", "airports"]
        for path in shapefiles {
            let reader = try open(path)
            let folder = String(path.prefix { $0 != "/" })
            let expectedKind: ShapefileGeometryKind =
                pointFolders.contains(folder) ? .point : folder == "thoroughfares" ? .polyline : .polygon
            XCTAssertEqual(reader.geometryKind, expectedKind, path)
            XCTAssertEqual(reader.encodingName, "UTF-8 (.cpg)", path)
            var invalid: [String] = []
            for index in 0..<reader.recordCount {
                if case .invalid(let reason) = try reader.record(at: index) { invalid.append(reason) }
            }
            XCTAssertEqual(invalid, [], path)
            XCTAssertEqual(reader.warnings, [], path)
        }
    }

    func testRecordCountsMatchTheDataReadme() throws {
        let expected: [(String, Int)] = [
            ("countries/ne_10m_admin_0_countries.shp", 258),
            ("admin1/ne_10m_admin1.shp", 4853),
            ("localities/geonames_cities1000.shp", 155_210),
            ("localities/geonames_cities500_fill.shp", 22_531),
            ("postcodes/codepoint_open_london.shp", 227_732),
            ("districts/london_boroughs.shp", 33),
            ("localities/rutland_gis_osm_places_free_1.shp", 301),
            ("thoroughfares/london_osmplotr_highways.shp", 1133),
            ("thoroughfares/london_osm2streets_highways.shp", 318),
            ("thoroughfares/rutland_gis_osm_roads_free_1.shp", 6665),
            ("thoroughfares/helsinki_osm_highways.shp", 2504),
            ("thoroughfares/london_fitzrovia_highways.shp", 286),
            ("addresses/london_osm_addresses.shp", 726),
            ("timezones/iana_time_zones.shp", 444),
            ("timezones/ne_10m_time_zones.shp", 120),
            ("water/ne_10m_geography_marine_polys.shp", 307),
            ("water/ne_10m_lakes.shp", 1354),
            ("airports/ne_10m_airports.shp", 891),
            ("basemap/ne_50m_admin_0_countries.shp", 241),
            ("basemap/ne_110m_admin_0_countries.shp", 177),
        ]
        for (path, count) in expected {
            XCTAssertEqual(try open(path).recordCount, count, path)
        }
    }

    func testNamesWithAccentsAndOtherScriptsDecode() throws {
        let admin1 = try open("admin1/ne_10m_admin1.shp")
        XCTAssertNotNil(try firstRecord(in: admin1, where: ["name": "Entre Ríos"]))
        XCTAssertNotNil(try firstRecord(in: admin1, where: ["name": "Zürich"]))

        let cities = try open("localities/geonames_cities1000.shp")
        let paris = try XCTUnwrap(try firstRecord(in: cities, where: ["name": "Paris", "cc": "FR"]))
        XCTAssertEqual(cities.string(record: paris, field: try XCTUnwrap(cities.fieldIndex("admin1"))), "Île-de-France")
        XCTAssertGreaterThan(cities.integer(record: paris, field: try XCTUnwrap(cities.fieldIndex("population"))) ?? 0, 2_000_000)

        let countries = try open("countries/ne_10m_admin_0_countries.shp")
        XCTAssertNotNil(try firstRecord(in: countries, where: ["NAME": "Côte d'Ivoire", "ISO_A2": "CI"]))

        let helsinki = try open("thoroughfares/helsinki_osm_highways.shp")
        XCTAssertNotNil(try firstRecord(in: helsinki, where: ["name": "Töölönlahdenkatu"]))
    }

    func testLesothoIsAHoleInSouthAfrica() throws {
        let countries = try open("countries/ne_10m_admin_0_countries.shp")
        let southAfrica = try XCTUnwrap(try firstRecord(in: countries, where: ["ADMIN": "South Africa"]))
        guard case .shape(let shape) = try countries.record(at: southAfrica) else { return XCTFail("no shape") }
        let polygons: [Polygon]
        switch shape {
        case .polygon(let polygon): polygons = [polygon]
        case .multiPolygon(let multiple): polygons = multiple
        default: return XCTFail("not a polygon: \(shape)")
        }
        let holes = polygons.flatMap(\.holes)
        XCTAssertEqual(holes.count, 1)
        let maseru = Point2D(x: 27.48, y: -29.31)
        let holeBox = Shape.lineString(holes.first ?? []).boundingBox
        XCTAssertTrue(holeBox.contains(x: maseru.x, y: maseru.y), "the hole is not around Maseru: \(holeBox)")
    }
}
