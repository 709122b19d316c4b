import Foundation
import Travel411Core
import Travel411Store
import Travel411StoreWriters
import XCTest

final class GeoPackageWriterTests: XCTestCase {
    private static let ogrinfo = "/usr/bin/ogrinfo"

    private func p(_ x: Double, _ y: Double) -> Point2D { Point2D(x: x, y: y) }

    private var zurichArea: Polygon {
        Polygon(
            exterior: [p(8.4, 47.3), p(8.7, 47.3), p(8.7, 47.5), p(8.4, 47.5), p(8.4, 47.3)],
            holes: [[p(8.5, 47.35), p(8.5, 47.4), p(8.55, 47.4), p(8.5, 47.35)]])
    }
    private var island: Polygon { Polygon(exterior: [p(-20, 60), p(-18, 60), p(-19, 61), p(-20, 60)]) }

    private let source = SourceRecord(
        layer: "cities", level: "city", path: "/data/cities.shp", sha256: String(repeating: "ab", count: 32),
        featureCount: 3, skippedCount: 1, skippedReasons: "1 null shape", importSeconds: 0.25,
        importedAt: Date(timeIntervalSince1970: 1_700_000_000))

    /// Two layers, an attributes table and a source record, built the way the importer will.
    private func writeSampleGeoPackage(in directory: URL) throws -> URL {
        let target = directory.appendingPathComponent("places.gpkg")
        try AtomicFileReplacement.replace(target) { url in
            let writer = try GeoPackageWriter(database: SQLiteDatabase(path: url.path))
            let cities = try writer.createFeatureTable(
                "cities", geometryType: .point,
                columns: [.text("name"), .integer("population"), .real("elevation")], description: "populated places")
            XCTAssertEqual(try cities.insert(.point(p(8.5417, 47.3769)), values: [.text("Zürich"), .integer(421_878), .real(408)]), 1)
            XCTAssertEqual(try cities.insert(.point(p(2.3522, 48.8566)), values: [.text("Paris"), .integer(2_102_650), .null]), 2)
            XCTAssertEqual(try cities.insert(.point(p(0.1, -0.1)), values: [.text("Null Island-ish"), .null, .real(0)]), 3)
            try cities.finish()

            let regions = try writer.createFeatureTable(
                "regions", geometryType: .multiPolygon, columns: [.text("name")], description: "admin areas")
            try regions.insert(.polygon(zurichArea), values: [.text("Zürich")])  // promoted to a multipolygon
            try regions.insert(
                .multiPolygon([island, Polygon(exterior: [p(-17, 62), p(-16, 62), p(-16, 63), p(-17, 62)])]), values: [.text("Islands")])
            // regions is left for writer.finish() to complete.

            let notes = try writer.createAttributeTable("notes", columns: [.text("note")], description: "free text")
            try notes.insert([.text("hello")])
            try writer.recordSource(source)
            try writer.setMetadata(key: "data_release", value: "5.1.1")
            try writer.finish()
        }
        return target
    }

    func testOgrinfoListsEveryLayerWithoutComplaints() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.ogrinfo) else { throw XCTSkip("ogrinfo is not installed") }
        let file = try writeSampleGeoPackage(in: makeTemporaryDirectory(self))

        let summary = try runProcess(Self.ogrinfo, ["-so", "-al", file.path])
        XCTAssertEqual(summary.status, 0, summary.combined)
        XCTAssertNoComplaints(summary)
        let layers = parseLayerSummaries(summary.standardOutput)
        XCTAssertEqual(layers["cities"]?.geometry, "Point")
        XCTAssertEqual(layers["cities"]?.featureCount, 3)
        XCTAssertEqual(layers["regions"]?.geometry, "Multi Polygon")
        XCTAssertEqual(layers["regions"]?.featureCount, 2)
        XCTAssertEqual(layers["notes"]?.geometry, "None")
        XCTAssertEqual(layers["notes"]?.featureCount, 1)
        XCTAssertEqual(layers["travel411_sources"]?.featureCount, 1)
        XCTAssertTrue(summary.standardOutput.contains("Extent: (-20.000000, 47.300000) - (8.700000, 63.000000)"), summary.standardOutput)

        // GDAL decodes every blob we wrote.
        let features = try runProcess(Self.ogrinfo, ["-al", "-q", file.path])
        XCTAssertNoComplaints(features)
        XCTAssertTrue(features.standardOutput.contains("POINT (8.5417 47.3769)"), features.standardOutput)
        XCTAssertTrue(
            features.standardOutput.contains(
                "MULTIPOLYGON (((8.4 47.3,8.7 47.3,8.7 47.5,8.4 47.5,8.4 47.3),(8.5 47.35,8.5 47.4,8.55 47.4,8.5 47.35)))"),
            features.standardOutput)

        for table in ["cities", "regions"] {
            let index = try runProcess(
                Self.ogrinfo, [file.path, "-dialect", "SQLite", "-sql", "SELECT HasSpatialIndex('\(table)', 'geom')"])
            XCTAssertNoComplaints(index)
            XCTAssertTrue(index.standardOutput.contains("HasSpatialIndex (Integer) = 1"), index.combined)
        }
        // GDAL uses the index for a spatial filter and finds only Paris.
        let filtered = try runProcess(Self.ogrinfo, ["-q", "-spat", "2", "48", "3", "49", file.path, "cities"])
        XCTAssertNoComplaints(filtered)
        XCTAssertTrue(filtered.standardOutput.contains("name (String) = Paris"), filtered.combined)
        XCTAssertFalse(filtered.standardOutput.contains("Zürich"), filtered.combined)
    }

    func testFileIsAConsistentGeoPackage() throws {
        let file = try writeSampleGeoPackage(in: makeTemporaryDirectory(self))
        let database = try SQLiteDatabase(path: file.path, mode: .readOnly)
        XCTAssertEqual(try database.query("PRAGMA application_id"), [[.integer(0x4750_4B47)]])
        XCTAssertEqual(try database.query("PRAGMA user_version"), [[.integer(10300)]])
        XCTAssertEqual(try database.query("PRAGMA page_size"), [[.integer(4096)]])
        XCTAssertEqual(try database.query("PRAGMA journal_mode"), [[.text("delete")]])
        XCTAssertEqual(try database.query("PRAGMA integrity_check"), [[.text("ok")]])
        XCTAssertEqual(try database.query("PRAGMA foreign_key_check"), [])
        XCTAssertEqual(
            try database.query("SELECT rtreecheck('rtree_cities_geom'), rtreecheck('rtree_regions_geom')"),
            [[.text("ok"), .text("ok")]])
        XCTAssertEqual(
            try database.query("SELECT srs_id FROM gpkg_spatial_ref_sys ORDER BY srs_id"),
            [[.integer(-1)], [.integer(0)], [.integer(4326)]])
        XCTAssertEqual(
            try database.query("SELECT table_name, data_type FROM gpkg_contents ORDER BY table_name"),
            [
                [.text("cities"), .text("features")], [.text("notes"), .text("attributes")],
                [.text("regions"), .text("features")], [.text("travel411_sources"), .text("attributes")],
            ])
        XCTAssertEqual(
            try database.query("SELECT table_name, extension_name, scope FROM gpkg_extensions ORDER BY table_name"),
            [
                [.text("cities"), .text("gpkg_rtree_index"), .text("write-only")],
                [.text("regions"), .text("gpkg_rtree_index"), .text("write-only")],
            ])
    }

    func testReaderSeesLayersGeometriesSourcesAndMetadata() throws {
        let reader = try GeoPackageReader(path: writeSampleGeoPackage(in: makeTemporaryDirectory(self)).path)
        let layers = try reader.layers()
        XCTAssertEqual(layers.map(\.name), ["cities", "regions"])
        XCTAssertEqual(layers.map(\.featureCount), [3, 2])

        XCTAssertEqual(try reader.geometry(table: "cities", fid: 2), .point(p(2.3522, 48.8566)))
        XCTAssertEqual(try reader.geometry(table: "regions", fid: 1), .multiPolygon([zurichArea]))
        XCTAssertNil(try reader.geometry(table: "cities", fid: 99))
        XCTAssertThrowsError(try reader.geometry(table: "nowhere", fid: 1)) { error in
            XCTAssertTrue("\(error)".contains("no feature table named 'nowhere'"), "\(error)")
        }

        XCTAssertEqual(try reader.sources(), [source])
        let metadata = try reader.metadata()
        XCTAssertEqual(metadata["schema_version"], String(GeoPackageWriter.schemaVersion))
        XCTAssertEqual(metadata["tool_version"], Travel411.version)
        XCTAssertEqual(metadata["data_release"], "5.1.1")
        XCTAssertNotNil(metadata["build_date"])
    }

    func testCandidateQueryReturnsTheFeaturesWhoseBoxesMeetTheQuery() throws {
        let reader = try GeoPackageReader(path: writeSampleGeoPackage(in: makeTemporaryDirectory(self)).path)
        XCTAssertEqual(try reader.candidates(in: "cities", box: BoundingBox(minX: 0, minY: 40, maxX: 10, maxY: 50)).sorted(), [1, 2])
        XCTAssertEqual(try reader.candidates(in: "cities", box: BoundingBox(minX: 8, minY: 47, maxX: 9, maxY: 48)), [1])
        XCTAssertEqual(try reader.candidates(in: "regions", box: BoundingBox(minX: 8.45, minY: 47.45, maxX: 8.46, maxY: 47.46)), [1])
        XCTAssertEqual(try reader.candidates(in: "regions", box: BoundingBox(minX: -16.5, minY: 62.5, maxX: -16.5, maxY: 62.5)), [2])
        XCTAssertEqual(try reader.candidates(in: "regions", box: BoundingBox(minX: 100, minY: 0, maxX: 101, maxY: 1)), [])
        // 0.1 and -0.1 are not Floats: the stored box must still contain the exact point.
        XCTAssertEqual(try reader.candidates(in: "cities", box: BoundingBox(minX: 0.1, minY: -0.1, maxX: 0.1, maxY: -0.1)), [3])
    }

    func testRejectsMisuseWithMessagesNamingTheFile() throws {
        let directory = try makeTemporaryDirectory(self)
        let path = directory.appendingPathComponent("misuse.gpkg").path
        let writer = try GeoPackageWriter(database: SQLiteDatabase(path: path))
        let table = try writer.createFeatureTable("lines", geometryType: .lineString, columns: [.text("name")], description: "")

        XCTAssertThrowsError(try table.insert(.lineString([p(0, 0), p(1, 1)]), values: [])) { error in
            XCTAssertTrue("\(error)".hasPrefix(path), "\(error)")
            XCTAssertTrue("\(error)".contains("0 values given for 1 columns"), "\(error)")
        }
        XCTAssertThrowsError(try table.insert(.point(p(0, 0)), values: [.text("x")])) { error in
            XCTAssertTrue("\(error)".contains("holds LINESTRING features, not POINT"), "\(error)")
        }
        XCTAssertThrowsError(try writer.createFeatureTable("LINES", geometryType: .point, columns: [], description: ""))
        XCTAssertThrowsError(try writer.createFeatureTable("gpkg_mine", geometryType: .point, columns: [], description: ""))
        XCTAssertThrowsError(try writer.createAttributeTable("dup", columns: [.text("a"), .text("A")], description: ""))
        XCTAssertThrowsError(try writer.createAttributeTable("geomless", columns: [.text("geom")], description: ""))
        try writer.finish()
        XCTAssertThrowsError(try writer.setMetadata(key: "late", value: "x"))

        // A database that already has tables is not silently turned into a GeoPackage.
        XCTAssertThrowsError(try GeoPackageWriter(database: SQLiteDatabase(path: path))) { error in
            XCTAssertTrue("\(error)".contains("not empty"), "\(error)")
        }
        let plain = directory.appendingPathComponent("plain.sqlite").path
        try SQLiteDatabase(path: plain).execute("CREATE TABLE t (x)")
        XCTAssertThrowsError(try GeoPackageReader(path: plain)) { error in
            XCTAssertTrue("\(error)".contains("not a GeoPackage"), "\(error)")
        }
    }

    func testEmptyLayerIsValid() throws {
        let directory = try makeTemporaryDirectory(self)
        let target = directory.appendingPathComponent("empty.gpkg")
        try AtomicFileReplacement.replace(target) { url in
            let writer = try GeoPackageWriter(database: SQLiteDatabase(path: url.path))
            _ = try writer.createFeatureTable("nothing", geometryType: .multiPolygon, columns: [], description: "")
            try writer.finish()
        }
        let reader = try GeoPackageReader(path: target.path)
        XCTAssertEqual(try reader.layers().map(\.featureCount), [0])
        XCTAssertEqual(try reader.candidates(in: "nothing", box: BoundingBox(minX: -180, minY: -90, maxX: 180, maxY: 90)), [])
        if FileManager.default.isExecutableFile(atPath: Self.ogrinfo) {
            let summary = try runProcess(Self.ogrinfo, ["-so", "-al", target.path])
            XCTAssertNoComplaints(summary)
            XCTAssertEqual(parseLayerSummaries(summary.standardOutput)["nothing"]?.featureCount, 0)
        }
    }

    // MARK: Helpers

    private func XCTAssertNoComplaints(_ output: ProcessOutput, file: StaticString = #filePath, line: UInt = #line) {
        let complaints = output.combined.split(separator: "\n").filter {
            $0.localizedCaseInsensitiveContains("error") || $0.localizedCaseInsensitiveContains("warning")
        }
        XCTAssertEqual(complaints, [], output.combined, file: file, line: line)
        XCTAssertEqual(output.status, 0, output.combined, file: file, line: line)
    }

    /// "Layer name:", "Geometry:" and "Feature Count:" of each layer in `ogrinfo -so -al` output.
    private func parseLayerSummaries(_ text: String) -> [String: (geometry: String, featureCount: Int)] {
        var layers: [String: (geometry: String, featureCount: Int)] = [:]
        var current: String?
        for line in text.split(separator: "\n").map(String.init) {
            func value(after prefix: String) -> String? {
                line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces) : nil
            }
            if let name = value(after: "Layer name:") {
                current = name
                layers[name] = (geometry: "", featureCount: -1)
            } else if let name = current, let geometry = value(after: "Geometry:") {
                layers[name]?.geometry = geometry
            } else if let name = current, let count = value(after: "Feature Count:").flatMap({ Int($0) }) {
                layers[name]?.featureCount = count
            }
        }
        return layers
    }
}
