import Travel411Core
import Travel411Import
import Travel411OSM
import Travel411Shapefile
import Travel411Store
import XCTest

/// Shapefiles written with shapelib read back as the geometry and attributes written.
final class ShapefileRoundTripTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TestShapefileWriter.makeTemporaryDirectory()
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    private func points(_ pairs: [(Double, Double)]) -> [Point2D] { TestShapefileWriter.points(pairs) }

    /// A clockwise (outer, in shapefile terms) axis-aligned square.
    private func clockwiseSquare(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> [Point2D] {
        points([(minX, minY), (minX, maxY), (maxX, maxY), (maxX, minY), (minX, minY)])
    }

    /// A counter-clockwise (hole) axis-aligned square.
    private func counterClockwiseSquare(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> [Point2D] {
        Array(clockwiseSquare(minX, minY, maxX, maxY).reversed())
    }

    private func readAll(_ shp: URL) throws -> (ShapefileReader, [ShapeRecord]) {
        let reader = try ShapefileReader(path: shp.path)
        return (reader, try (0..<reader.recordCount).map(reader.record(at:)))
    }

    func testPointsAndTheirAttributes() throws {
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "towns", kind: .point,
            fields: [
                .string("NAME", width: 20), .integer("POP"), .double("AREA", width: 12, decimals: 2),
                .logical("CAPITAL"), .date("FOUNDED"),
            ],
            records: [
                .point(x: -0.1276, y: 51.5072, values: ["London", 8_800_000, 1572.25, true, .text("00500101")]),
                .point(x: 2.3522, y: 48.8566, values: ["  Paris ", .integer(5_000_000_000), 105.0, false, .text("00000000")]),
                .point(x: 13.405, y: 52.52, values: [nil, nil, nil, nil, nil]),
            ])
        let (reader, records) = try readAll(shp)

        XCTAssertEqual(reader.path, shp.path)
        XCTAssertEqual(reader.geometryKind, .point)
        XCTAssertEqual(reader.recordCount, 3)
        XCTAssertEqual(reader.encodingName, "UTF-8 (.cpg)")
        XCTAssertEqual(reader.warnings, [])
        XCTAssertEqual(reader.boundingBox, BoundingBox(minX: -0.1276, minY: 48.8566, maxX: 13.405, maxY: 52.52))
        XCTAssertEqual(reader.fields.map(\.name), ["NAME", "POP", "AREA", "CAPITAL", "FOUNDED"])
        XCTAssertEqual(reader.fields.map(\.type), [.string, .integer, .double, .logical, .date])
        XCTAssertEqual(reader.fields[0].width, 20)
        XCTAssertEqual(reader.fields[2].decimals, 2)
        XCTAssertEqual(reader.fieldIndex("name"), 0)
        XCTAssertEqual(reader.fieldIndex("Capital"), 3)
        XCTAssertNil(reader.fieldIndex("missing"))
        XCTAssertEqual(
            records,
            [
                .shape(.point(Point2D(x: -0.1276, y: 51.5072))),
                .shape(.point(Point2D(x: 2.3522, y: 48.8566))),
                .shape(.point(Point2D(x: 13.405, y: 52.52))),
            ])

        XCTAssertEqual(reader.string(record: 0, field: 0), "London")
        XCTAssertEqual(reader.string(record: 1, field: 0), "Paris", "values are trimmed")
        XCTAssertEqual(reader.integer(record: 0, field: 1), 8_800_000)
        XCTAssertEqual(reader.integer(record: 1, field: 1), 5_000_000_000, "wider than Int32")
        XCTAssertEqual(reader.double(record: 0, field: 2), 1572.25)
        XCTAssertNil(reader.integer(record: 0, field: 2), "1572.25 is not a whole number")
        XCTAssertEqual(reader.integer(record: 1, field: 2), 105)
        XCTAssertEqual(reader.double(record: 0, field: 1), 8_800_000)
        XCTAssertEqual(reader.bool(record: 0, field: 3), true)
        XCTAssertEqual(reader.bool(record: 1, field: 3), false)
        XCTAssertEqual(reader.string(record: 0, field: 4), "00500101")
        XCTAssertNil(reader.string(record: 1, field: 4), "an all-zero date is empty")
        for field in 0..<5 {
            XCTAssertNil(reader.string(record: 2, field: field), "null in field \(field)")
        }
        XCTAssertNil(reader.integer(record: 2, field: 1))
        XCTAssertNil(reader.double(record: 2, field: 2))
        XCTAssertNil(reader.bool(record: 2, field: 3))
        XCTAssertNil(reader.double(record: 0, field: 0), "text is not a number")
        XCTAssertNil(reader.string(record: 3, field: 0), "no such record")
        XCTAssertNil(reader.string(record: 0, field: 5), "no such field")
        XCTAssertFalse(reader.isDeleted(record: 0))
        XCTAssertThrowsError(try reader.record(at: 3)) { error in
            XCTAssertTrue("\(error)".contains("record 4 does not exist"), "\(error)")
        }
    }

    func testMultiPoints() throws {
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "stops", kind: .multiPoint,
            records: [
                .shape([points([(1, 2), (3, 4), (5, 6)])])
            ])
        let (reader, records) = try readAll(shp)
        XCTAssertEqual(reader.geometryKind, .multiPoint)
        XCTAssertEqual(records, [.shape(.multiPoint(points([(1, 2), (3, 4), (5, 6)])))])
    }

    func testLinesKeepPartsOfTwoOrMorePoints() throws {
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "roads", kind: .polyline,
            records: [
                .shape([points([(0, 0), (1, 1), (2, 1)])]),
                .shape([points([(0, 0), (1, 1)]), points([(5, 5), (6, 6), (7, 5)])]),
                .shape([points([(0, 0), (1, 0)]), points([(9, 9)])]),
                .shape([points([(3, 3)])]),
            ])
        let (reader, records) = try readAll(shp)
        XCTAssertEqual(reader.geometryKind, .polyline)
        XCTAssertEqual(
            records,
            [
                .shape(.lineString(points([(0, 0), (1, 1), (2, 1)]))),
                .shape(.multiLineString([points([(0, 0), (1, 1)]), points([(5, 5), (6, 6), (7, 5)])])),
                .shape(.lineString(points([(0, 0), (1, 0)]))),
                .invalid("record 4: no line part has 2 or more points"),
            ])
    }

    func testPolygonWithAHole() throws {
        let outer = clockwiseSquare(0, 0, 10, 10)
        let hole = counterClockwiseSquare(2, 2, 4, 4)
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "parks", kind: .polygon,
            records: [
                .shape([outer, hole])
            ])
        let (reader, records) = try readAll(shp)
        XCTAssertEqual(reader.geometryKind, .polygon)
        XCTAssertEqual(records, [.shape(.polygon(Polygon(exterior: outer, holes: [hole])))])
    }

    func testHolesGoToTheSmallestOuterRingThatContainsThem() throws {
        // An island (with a pond) inside a lake inside a country, and a second country beside it.
        let country = clockwiseSquare(0, 0, 20, 20)
        let lake = counterClockwiseSquare(1, 1, 19, 19)
        let island = clockwiseSquare(5, 5, 15, 15)
        let pond = counterClockwiseSquare(8, 8, 12, 12)
        let neighbour = clockwiseSquare(30, 0, 40, 10)
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "nested", kind: .polygon,
            records: [
                .shape([pond, country, island, neighbour, lake])
            ])
        let (_, records) = try readAll(shp)
        XCTAssertEqual(
            records,
            [
                .shape(
                    .multiPolygon([
                        Polygon(exterior: country, holes: [lake]),
                        Polygon(exterior: island, holes: [pond]),
                        Polygon(exterior: neighbour),
                    ]))
            ])
    }

    func testAHoleTouchingItsOuterRingAtAVertexStaysAHole() throws {
        let outer = clockwiseSquare(0, 0, 10, 10)
        let hole = points([(0, 0), (5, 2), (2, 5), (0, 0)])  // counter-clockwise, starting on the outer ring
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "touching", kind: .polygon,
            records: [
                .shape([outer, hole])
            ])
        let (_, records) = try readAll(shp)
        XCTAssertEqual(records, [.shape(.polygon(Polygon(exterior: outer, holes: [hole])))])
    }

    func testRecordsWithOnlyCounterClockwiseRingsAreReadAsOuterRings() throws {
        let first = counterClockwiseSquare(0, 0, 1, 1)
        let second = counterClockwiseSquare(5, 5, 6, 6)
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "ccw", kind: .polygon,
            records: [
                .shape([first]),
                .shape([first, second]),
            ])
        let (reader, records) = try readAll(shp)
        XCTAssertEqual(
            records,
            [
                .shape(.polygon(Polygon(exterior: first))),
                .shape(.multiPolygon([Polygon(exterior: first), Polygon(exterior: second)])),
            ])
        XCTAssertEqual(reader.warnings, [])
    }

    func testAHoleOutsideEveryOuterRingIsReadAsAnOuterRingWithAWarning() throws {
        let outer = clockwiseSquare(0, 0, 10, 10)
        let stray = counterClockwiseSquare(20, 20, 30, 30)
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "stray", kind: .polygon,
            records: [
                .shape([outer, stray])
            ])
        let (reader, records) = try readAll(shp)
        XCTAssertEqual(records, [.shape(.multiPolygon([Polygon(exterior: outer), Polygon(exterior: stray)]))])
        XCTAssertEqual(reader.warnings.count, 1)
        XCTAssertTrue(reader.warnings[0].contains("stray.shp, record 1: a hole lies outside every outer ring"), reader.warnings[0])
    }

    func testRingsThatBoundNothingAreDropped() throws {
        let outer = clockwiseSquare(0, 0, 10, 10)
        let sliver = points([(1, 1), (2, 2), (1, 1)])  // 3 points
        let flat = points([(0, 0), (1, 1), (2, 2), (0, 0)])  // no area
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "slivers", kind: .polygon,
            records: [
                .shape([outer, sliver]),
                .shape([sliver]),
                .shape([flat]),
            ])
        let (_, records) = try readAll(shp)
        let nothingUsable = "the polygon has no ring with 4 or more points and an area"
        XCTAssertEqual(
            records,
            [
                .shape(.polygon(Polygon(exterior: outer))),
                .invalid("record 2: \(nothingUsable)"),
                .invalid("record 3: \(nothingUsable)"),
            ])
    }

    func testUnclosedRingsAreClosed() throws {
        let open = points([(0, 0), (0, 10), (10, 10), (10, 0)])
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "open", kind: .polygon,
            records: [
                .shape([open])
            ])
        let (_, records) = try readAll(shp)
        XCTAssertEqual(records, [.shape(.polygon(Polygon(exterior: open + [open[0]])))])
    }

    func testCoordinatesThatAreNotNumbersMakeTheRecordInvalid() throws {
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "nan", kind: .polyline,
            records: [
                .shape([points([(0, 0), (1, 1)])]),
                .shape([points([(0, 0), (.nan, 1)])]),
                .shape([points([(0, 0), (1, .infinity)])]),
            ])
        let (_, records) = try readAll(shp)
        XCTAssertEqual(
            records,
            [
                .shape(.lineString(points([(0, 0), (1, 1)]))),
                .invalid("record 2: coordinate is not a number"),
                .invalid("record 3: coordinate is not a number"),
            ])
    }

    func testNullShapesAreReadAsNull() throws {
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "gaps", kind: .point,
            fields: [.string("NAME")],
            records: [
                .point(x: 1, y: 1, values: ["a"]), .null(values: ["b"]), .point(x: 2, y: 2, values: ["c"]), .null(values: ["d"]),
            ])
        let (reader, records) = try readAll(shp)
        XCTAssertEqual(records.filter { $0 == .null }.count, 2)
        XCTAssertEqual(records[1], .null)
        XCTAssertEqual(reader.string(record: 3, field: 0), "d", "null shapes keep their attributes")
    }

    func testNullShapesInAPublishedSample() throws {
        let reader = try ShapefileReader(path: ShapefileFixtures.path("mbostock-shapefile", "null"))
        let records = try (0..<reader.recordCount).map(reader.record(at:))
        XCTAssertEqual(reader.recordCount, 9)
        XCTAssertEqual(records.filter { $0 == .null }.count, 4)
        XCTAssertEqual(records[0], .shape(.point(Point2D(x: 1, y: 2))))
    }

    func testShapesWithZAndMAreReadIn2D() throws {
        let line = points([(0, 0), (1, 1), (2, 0)])
        let ring = clockwiseSquare(0, 0, 1, 1)
        let cases: [(TestShapefileWriter.Kind, [[Point2D]], ShapefileGeometryKind, Shape)] = [
            (.pointZ, [points([(3, 4)])], .point, .point(Point2D(x: 3, y: 4))),
            (.pointM, [points([(3, 4)])], .point, .point(Point2D(x: 3, y: 4))),
            (.multiPointZ, [line], .multiPoint, .multiPoint(line)),
            (.multiPointM, [line], .multiPoint, .multiPoint(line)),
            (.polylineZ, [line], .polyline, .lineString(line)),
            (.polylineM, [line], .polyline, .lineString(line)),
            (.polygonZ, [ring], .polygon, .polygon(Polygon(exterior: ring))),
            (.polygonM, [ring], .polygon, .polygon(Polygon(exterior: ring))),
        ]
        for (kind, parts, expectedKind, expectedShape) in cases {
            let shp = try TestShapefileWriter.write(directory: directory, name: "\(kind)", kind: kind, records: [.shape(parts)])
            let (reader, records) = try readAll(shp)
            XCTAssertEqual(reader.geometryKind, expectedKind, "\(kind)")
            XCTAssertEqual(records, [.shape(expectedShape)], "\(kind)")
        }
    }

    func testMultiPatchIsRefused() throws {
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "tin", kind: .multiPatch,
            records: [
                .shape([clockwiseSquare(0, 0, 1, 1)])
            ])
        XCTAssertThrowsError(try ShapefileReader(path: shp.path)) { error in
            XCTAssertTrue("\(error)".contains("tin.shp has unsupported shape type MultiPatch"), "\(error)")
        }
    }

    func testAnEmptyShapefileHasNoRecords() throws {
        let shp = try TestShapefileWriter.write(directory: directory, name: "empty", kind: .polygon, records: [])
        let reader = try ShapefileReader(path: shp.path)
        XCTAssertEqual(reader.recordCount, 0)
        XCTAssertEqual(reader.warnings, [])
    }

    func testOpensWithoutTheExtensionAndWithUpperCaseExtensions() throws {
        try TestShapefileWriter.write(directory: directory, name: "upper", kind: .point, records: [.point(x: 1, y: 2)])
        for fileExtension in ["shp", "shx", "dbf", "prj", "cpg"] {
            try FileManager.default.moveItem(
                at: directory.appendingPathComponent("upper.\(fileExtension)"),
                to: directory.appendingPathComponent("upper.\(fileExtension.uppercased())"))
        }
        let withoutExtension = directory.appendingPathComponent("upper").path
        let reader = try ShapefileReader(path: withoutExtension)
        XCTAssertEqual(reader.path, withoutExtension + ".SHP")
        XCTAssertEqual(reader.encodingName, "UTF-8 (.cpg)")
        XCTAssertEqual(reader.warnings, [])
        XCTAssertEqual(try reader.record(at: 0), .shape(.point(Point2D(x: 1, y: 2))))
    }
}
