import Foundation
import Travel411Core
import Travel411OSM
import Travel411Store
import XCTest

/// The reader also opens GeoPackages that GDAL wrote, with or without a spatial index.
final class GeoPackageReaderInteroperabilityTests: XCTestCase {
    func testReadsAGeoPackageWrittenByGDAL() throws {
        let ogr2ogr = "/usr/bin/ogr2ogr"
        guard FileManager.default.isExecutableFile(atPath: ogr2ogr) else { throw XCTSkip("ogr2ogr is not installed") }
        let directory = try makeTemporaryDirectory(self)
        let csv = directory.appendingPathComponent("areas.csv")
        try Data(
            """
            name,WKT
            square,"POLYGON ((0 0,10 0,10 10,0 10,0 0),(2 2,2 4,4 4,2 2))"
            spot,"POINT (20 30)"
            pair,"MULTIPOLYGON (((40 40,41 40,41 41,40 40)),((50 50,51 50,51 51,50 50)))"

            """.utf8
        ).write(to: csv)
        let file = directory.appendingPathComponent("gdal.gpkg")
        for (layer, options) in [("indexed", [String]()), ("unindexed", ["-lco", "SPATIAL_INDEX=NO"])] {
            let result = try runProcess(
                ogr2ogr,
                ["-f", "GPKG", "-append", "-nln", layer, "-oo", "GEOM_POSSIBLE_NAMES=WKT", "-oo", "KEEP_GEOM_COLUMNS=NO"]
                    + options + [file.path, csv.path])
            XCTAssertEqual(result.status, 0, result.combined)
        }

        let reader = try GeoPackageReader(path: file.path)
        XCTAssertEqual(try reader.layers().map(\.name), ["indexed", "unindexed"])
        XCTAssertEqual(try reader.layers().map(\.featureCount), [3, 3])
        let square = Shape.polygon(
            Polygon(
                exterior: [Point2D(x: 0, y: 0), Point2D(x: 10, y: 0), Point2D(x: 10, y: 10), Point2D(x: 0, y: 10), Point2D(x: 0, y: 0)],
                holes: [[Point2D(x: 2, y: 2), Point2D(x: 2, y: 4), Point2D(x: 4, y: 4), Point2D(x: 2, y: 2)]]))
        for layer in ["indexed", "unindexed"] {
            XCTAssertEqual(try reader.geometry(table: layer, fid: 1), square)
            XCTAssertEqual(try reader.geometry(table: layer, fid: 2), .point(Point2D(x: 20, y: 30)))
            guard case .multiPolygon(let parts)? = try reader.geometry(table: layer, fid: 3) else { return XCTFail(layer) }
            XCTAssertEqual(parts.count, 2)
        }
        XCTAssertEqual(try reader.candidates(in: "indexed", box: BoundingBox(minX: 19, minY: 29, maxX: 21, maxY: 31)), [2])
        // Without an index every feature is a candidate; callers still test the geometry.
        XCTAssertEqual(
            try reader.candidates(in: "unindexed", box: BoundingBox(minX: 19, minY: 29, maxX: 21, maxY: 31)).sorted(), [1, 2, 3])
        XCTAssertEqual(try reader.sources(), [])
    }
}
