import Foundation
import Travel411Core
import Travel411OSM
import Travel411Store
import Travel411StoreWriters
import XCTest

/// The spatial index is packed by hand into SQLite's R-tree tables; these tests check SQLite, GDAL and
/// our reader all agree with a brute-force search on a tree several levels deep.
final class RTreeBulkLoadTests: XCTestCase {
    private struct Feature {
        let fid: Int64
        let box: BoundingBox
    }

    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    private func random() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }

    /// 20,000 points and small triangles all over the globe, plus some exact duplicates.
    private func writeLayer(to target: URL) throws -> [Feature] {
        var features: [Feature] = []
        try AtomicFileReplacement.replace(target) { url in
            let writer = try GeoPackageWriter(database: SQLiteDatabase(path: url.path))
            let table = try writer.createFeatureTable("mixed", geometryType: .geometry, columns: [], description: "")
            for index in 0..<20_000 {
                let x = random() * 360 - 180, y = random() * 180 - 90
                let shape: Shape =
                    index % 3 == 0
                    ? .polygon(
                        Polygon(exterior: [Point2D(x: x, y: y), Point2D(x: x + 0.3, y: y), Point2D(x: x, y: y + 0.2), Point2D(x: x, y: y)]))
                    : index % 100 == 1 ? .point(Point2D(x: 10.123456789, y: 45.987654321)) : .point(Point2D(x: x, y: y))
                let fid = try table.insert(shape, values: [])
                features.append(Feature(fid: fid, box: shape.boundingBox))
            }
            _ = try table.insert(.multiPolygon([]), values: [])  // empty: stored, but not indexed
            try writer.finish()
        }
        return features
    }

    private func queryBoxes() -> [BoundingBox] {
        var boxes = [
            BoundingBox(minX: -180, minY: -90, maxX: 180, maxY: 90),
            BoundingBox(minX: 10.123456789, minY: 45.987654321, maxX: 10.123456789, maxY: 45.987654321),
            BoundingBox(minX: 170, minY: -90, maxX: 180, maxY: -60),
        ]
        for _ in 0..<40 {
            let x = random() * 350 - 180, y = random() * 170 - 90
            boxes.append(BoundingBox(minX: x, minY: y, maxX: x + random() * 10, maxY: y + random() * 10))
        }
        return boxes
    }

    func testPackedTreeIsValidAndAnswersLikeABruteForceSearch() throws {
        let file = try makeTemporaryDirectory(self).appendingPathComponent("rtree.gpkg")
        let features = try writeLayer(to: file)

        let database = try SQLiteDatabase(path: file.path, mode: .readOnly)
        XCTAssertEqual(try database.query("SELECT rtreecheck('rtree_mixed_geom')"), [[.text("ok")]])
        XCTAssertEqual(try database.query("SELECT count(*) FROM rtree_mixed_geom"), [[.integer(20_000)]])
        // Full nodes: 20,000 / 51 → 393 leaves, 8 inner nodes, 1 root. SQLite's own inserts leave nodes part-empty.
        XCTAssertEqual(try database.query("SELECT count(*) FROM rtree_mixed_geom_node"), [[.integer(402)]])
        XCTAssertEqual(try database.query("SELECT count(*) FROM rtree_mixed_geom_parent"), [[.integer(401)]])

        let reader = try GeoPackageReader(path: file.path)
        for box in queryBoxes() {
            let found = Set(try reader.candidates(in: "mixed", box: box))
            let exact = Set(features.filter { $0.box.intersects(box) }.map(\.fid))
            let slack = 1e-5  // stored boxes are Floats rounded outwards
            let loose = Set(
                features.filter {
                    $0.box.intersects(
                        BoundingBox(minX: box.minX - slack, minY: box.minY - slack, maxX: box.maxX + slack, maxY: box.maxY + slack))
                }.map(\.fid))
            XCTAssertTrue(exact.isSubset(of: found), "missed \(exact.subtracting(found).sorted().prefix(5)) in \(box)")
            XCTAssertTrue(found.isSubset(of: loose), "extra \(found.subtracting(loose).sorted().prefix(5)) in \(box)")
        }
    }

    func testGDALSpatialFilterUsesThePackedTree() throws {
        let ogrinfo = "/usr/bin/ogrinfo"
        guard FileManager.default.isExecutableFile(atPath: ogrinfo) else { throw XCTSkip("ogrinfo is not installed") }
        let file = try makeTemporaryDirectory(self).appendingPathComponent("rtree.gpkg")
        let features = try writeLayer(to: file)
        let box = BoundingBox(minX: -30, minY: -20, maxX: 40, maxY: 25)
        let expected = features.filter { $0.box.intersects(box) }.count

        let output = try runProcess(ogrinfo, ["-so", "-spat", "-30", "-20", "40", "25", file.path, "mixed"])
        XCTAssertEqual(output.status, 0, output.combined)
        XCTAssertFalse(output.combined.localizedCaseInsensitiveContains("error"), output.combined)
        XCTAssertFalse(output.combined.localizedCaseInsensitiveContains("warning"), output.combined)
        XCTAssertTrue(output.standardOutput.contains("Feature Count: \(expected)\n"), "expected \(expected):\n\(output.standardOutput)")
    }
}
