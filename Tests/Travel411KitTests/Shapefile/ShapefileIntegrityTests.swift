import Travel411Core
import Travel411Shapefile
import XCTest

/// Damaged, incomplete, foreign and projected shapefiles fail when they are opened, naming the file (and the
/// record where there is one); harmless oddities only warn.
final class ShapefileIntegrityTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TestShapefileWriter.makeTemporaryDirectory()
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    /// Five two-point lines with a name each.
    private func writeRoads() throws -> URL {
        try TestShapefileWriter.write(
            directory: directory, name: "roads", kind: .polyline, fields: [.string("NAME")],
            records: (1...5).map { index in
                .shape([TestShapefileWriter.points([(Double(index), 0), (Double(index), 1)])], values: [.text("road \(index)")])
            })
    }

    private func sidecar(_ shp: URL, _ fileExtension: String) -> URL {
        shp.deletingPathExtension().appendingPathExtension(fileExtension)
    }

    private func assertOpeningFails(
        _ path: String, file: StaticString = #filePath, line: UInt = #line,
        _ check: (ShapefileError) -> Void
    ) {
        XCTAssertThrowsError(try ShapefileReader(path: path), file: file, line: line) { error in
            guard let error = error as? ShapefileError else {
                return XCTFail("not a ShapefileError: \(error)", file: file, line: line)
            }
            check(error)
        }
    }

    private func assertContains(_ text: String, _ parts: String..., file: StaticString = #filePath, line: UInt = #line) {
        for part in parts {
            XCTAssertTrue(text.contains(part), "“\(text)” lacks “\(part)”", file: file, line: line)
        }
    }

    private func truncate(_ url: URL, by count: Int) throws {
        let data = try Data(contentsOf: url)
        try data.prefix(data.count - count).write(to: url)
    }

    private func overwriteBigEndianInt32(_ url: URL, at offset: Int, with value: Int32) throws {
        var data = try Data(contentsOf: url)
        withUnsafeBytes(of: value.bigEndian) { data.replaceSubrange(offset..<offset + 4, with: $0) }
        try data.write(to: url)
    }

    private func readBigEndianInt32(_ url: URL, at offset: Int) throws -> Int32 {
        let data = try Data(contentsOf: url)
        return data[offset..<offset + 4].reduce(0) { $0 << 8 | Int32($1) }
    }

    // MARK: Missing files

    func testMissingSidecarsAreNamed() throws {
        let shp = try writeRoads()
        for fileExtension in ["dbf", "shx"] {
            let stash = directory.appendingPathComponent("stash")
            try FileManager.default.moveItem(at: sidecar(shp, fileExtension), to: stash)
            assertOpeningFails(shp.path) { error in
                let hint =
                    fileExtension == "shx"
                    ? "; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES roads_fixed.shp roads.shp`" : ""
                XCTAssertEqual(
                    error.message, "\(sidecar(shp, fileExtension).path) is missing: a shapefile needs .shp, .shx and .dbf" + hint)
                XCTAssertEqual(error.file, sidecar(shp, fileExtension).path)
            }
            try FileManager.default.moveItem(at: stash, to: sidecar(shp, fileExtension))
        }
        assertOpeningFails(directory.appendingPathComponent("nowhere.shp").path) { error in
            assertContains(error.message, "nowhere.shp is missing")
        }
    }

    // MARK: Damaged .shp and .shx

    func testATruncatedShpNamesTheFirstRecordPastItsEnd() throws {
        let shp = try writeRoads()
        try truncate(shp, by: 10)
        assertOpeningFails(shp.path) { error in
            XCTAssertEqual(error.record, 5)
            assertContains(error.message, "roads.shx, record 5 points at bytes", "roads.shp", "truncated")
        }
    }

    func testAShxOffsetPastTheEndOfTheShpIsNamed() throws {
        let shp = try writeRoads()
        try overwriteBigEndianInt32(sidecar(shp, "shx"), at: 100 + 2 * 8, with: 1_000_000)
        assertOpeningFails(shp.path) { error in
            XCTAssertEqual(error.record, 3)
            XCTAssertEqual(error.file, sidecar(shp, "shx").path)
            assertContains(error.message, "roads.shx, record 3 points at bytes 2000000", "roads.shp")
        }
    }

    func testAShxOffsetIntoTheMiddleOfAnotherRecordIsNamed() throws {
        let shp = try writeRoads()
        let shx = sidecar(shp, "shx")
        let secondRecordOffset = try readBigEndianInt32(shx, at: 100 + 1 * 8)
        try overwriteBigEndianInt32(shx, at: 100 + 3 * 8, with: secondRecordOffset + 6)
        assertOpeningFails(shp.path) { error in
            XCTAssertEqual(error.record, 4)
            assertContains(error.message, "roads.shp, record 4", "the .shx does not match the .shp")
        }
    }

    func testAShxOffsetIntoTheHeaderIsNamed() throws {
        let shp = try writeRoads()
        try overwriteBigEndianInt32(sidecar(shp, "shx"), at: 100, with: 10)
        assertOpeningFails(shp.path) { error in
            XCTAssertEqual(error.record, 1)
            assertContains(error.message, "roads.shx, record 1 points at byte 20", "inside its 100-byte header")
        }
    }

    func testATruncatedShxIsNamed() throws {
        let shp = try writeRoads()
        try truncate(sidecar(shp, "shx"), by: 8)
        assertOpeningFails(shp.path) { error in
            assertContains(error.message, "roads.shx is truncated: its header lists 5 records but the file holds only 4")
        }
    }

    func testARecordShapelibCannotReadFailsWithShapelibsReason() throws {
        let shp = try writeRoads()
        // Point the start of record 2's only part past its two vertices: the .shx still matches the .shp.
        let recordOffset = Int(try readBigEndianInt32(sidecar(shp, "shx"), at: 100 + 1 * 8)) * 2
        let firstPartStart = recordOffset + 8 + 4 + 32 + 4 + 4
        var data = try Data(contentsOf: shp)
        withUnsafeBytes(of: Int32(7).littleEndian) { data.replaceSubrange(firstPartStart..<firstPartStart + 4, with: $0) }
        try data.write(to: shp)

        let reader = try ShapefileReader(path: shp.path)
        XCTAssertNoThrow(try reader.record(at: 0))
        XCTAssertThrowsError(try reader.record(at: 1)) { error in
            guard let error = error as? ShapefileError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.record, 2)
            assertContains(error.message, "roads.shp, record 2 is corrupt: shapelib reports “", "panPartStart")
        }
        XCTAssertNoThrow(try reader.record(at: 2), "one bad record does not spoil the reader")
    }

    func testFilesThatAreNotShapefilesAreRefused() throws {
        assertOpeningFails(ShapefileFixtures.path("shapefile-js", "bad")) { error in
            assertContains(error.message, "bad.shp is not a shapefile: it starts with file code 57739530, not 9994")
        }
        let tiny = directory.appendingPathComponent("tiny.shp")
        try Data("not a shapefile".utf8).write(to: tiny)
        assertOpeningFails(tiny.path) { error in
            assertContains(error.message, "tiny.shp is not a shapefile: it has 15 bytes, fewer than the 100-byte header")
        }
    }

    func testAShpLongerThanItsHeaderSaysIsReadWithAWarning() throws {
        let reader = try ShapefileReader(path: ShapefileFixtures.path("pyshp", "corrupt_too_long"))
        XCTAssertEqual(reader.recordCount, 10)
        for index in 0..<reader.recordCount {
            guard case .shape(.lineString) = try reader.record(at: index) else { return XCTFail("record \(index + 1)") }
        }
        XCTAssertTrue(
            reader.warnings.contains { $0.contains("corrupt_too_long.shp is 1 byte longer than its header says") }, "\(reader.warnings)")
        XCTAssertTrue(
            reader.warnings.contains { $0.contains("corrupt_too_long.dbf is 5 bytes longer than its header says") }, "\(reader.warnings)")
    }

    // MARK: Damaged .dbf

    func testATruncatedDbfNamesTheRecordCutOff() throws {
        let shp = try writeRoads()
        try truncate(sidecar(shp, "dbf"), by: 60)  // the end-of-file byte and more than one 51-byte record
        assertOpeningFails(shp.path) { error in
            XCTAssertEqual(error.record, 4)
            assertContains(error.message, "roads.dbf, record 4 is cut off")
        }
    }

    func testADbfWithFewerRecordsThanShapesIsRefused() throws {
        let shp = try writeRoads()
        var data = try Data(contentsOf: sidecar(shp, "dbf"))
        data[4] = 3  // record count, little-endian
        try data.write(to: sidecar(shp, "dbf"))
        assertOpeningFails(shp.path) { error in
            XCTAssertEqual(error.record, 4)
            assertContains(error.message, "roads.dbf, record 4 is missing: the table has 3 records but", "has 5 shapes")
        }
    }

    func testExtraDbfRecordsAreIgnoredWithAWarning() throws {
        let shp = try writeRoads()
        let shx = sidecar(shp, "shx")
        // Drop the last shape from the index only: the .shp keeps it but nothing points at it.
        let shxLength = try readBigEndianInt32(shx, at: 24)
        try overwriteBigEndianInt32(shx, at: 24, with: shxLength - 4)
        try truncate(shx, by: 8)
        let reader = try ShapefileReader(path: shp.path)
        XCTAssertEqual(reader.recordCount, 4)
        XCTAssertTrue(
            reader.warnings.contains { $0.contains("roads.dbf has 5 records but") && $0.contains("has only 4 shapes") },
            "\(reader.warnings)")
    }

    func testDeletedRecordsAreReported() throws {
        let shp = try writeRoads()
        var data = try Data(contentsOf: sidecar(shp, "dbf"))
        let headerLength = Int(data[8]) | Int(data[9]) << 8
        let recordLength = Int(data[10]) | Int(data[11]) << 8
        data[headerLength + 2 * recordLength] = UInt8(ascii: "*")
        try data.write(to: sidecar(shp, "dbf"))
        let reader = try ShapefileReader(path: shp.path)
        XCTAssertEqual((0..<5).map(reader.isDeleted(record:)), [false, false, true, false, false])
        XCTAssertEqual(reader.string(record: 2, field: 0), "road 3", "a deleted record still has its values")
    }

    // MARK: Coordinate systems

    func testAProjectedShapefileIsRefusedWithTheNameOfItsCoordinateSystem() throws {
        assertOpeningFails(ShapefileFixtures.path("projected", "london_boroughs_bng")) { error in
            assertContains(
                error.message,
                "london_boroughs_bng.prj is in British_National_Grid, not WGS 84 (EPSG:4326); reproject it first, e.g. `ogr2ogr -t_srs EPSG:4326 "
            )
            XCTAssertTrue(error.file.hasSuffix("london_boroughs_bng.prj"))
        }
    }

    func testAProjectedShapefileWithoutPrjIsRefusedByItsBounds() throws {
        let shp = try ShapefileFixtures.stage("projected", "london_boroughs_bng", in: directory, omitting: ["prj"])
        assertOpeningFails(shp) { error in
            assertContains(
                error.message, "london_boroughs_bng.shp has coordinates from (503568.", "which are not longitude/latitude degrees")
        }
    }

    func testAnotherDatumIsRefused() throws {
        assertOpeningFails(ShapefileFixtures.path("sf", "nc")) { error in
            assertContains(error.message, "nc.prj is in GCS_North_American_1927, not WGS 84 (EPSG:4326); reproject it first")
        }
    }

    func testAMissingPrjIsAcceptedWithAWarning() throws {
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "noprj", kind: .point,
            records: [.point(x: 1, y: 2)], prj: nil)
        let reader = try ShapefileReader(path: shp.path)
        XCTAssertEqual(reader.warnings, ["\(shp.path) has no .prj; assuming WGS 84 longitude/latitude (EPSG:4326)"])
    }

    func testAPrjThatIsNotACoordinateSystemOnlyWarns() throws {
        let shp = try ShapefileFixtures.stage("shapefile-js", "htmlprj", in: directory, restoringIndex: true)
        let reader = try ShapefileReader(path: shp)
        XCTAssertEqual(reader.recordCount, 2)
        XCTAssertEqual(reader.warnings.count, 1)
        assertContains(reader.warnings.first ?? "", "htmlprj.prj is not a coordinate system description that can be read")
        XCTAssertEqual(try reader.record(at: 0), .shape(.point(Point2D(x: -108.6328125, y: 41.244772343082076))))
    }

    func testAnUnreadablePrjWithProjectedCoordinatesIsRefusedByTheBounds() throws {
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "metres", kind: .point,
            records: [.point(x: 530_000, y: 180_000)], prj: "<html>oops</html>")
        assertOpeningFails(shp.path) { error in
            assertContains(error.message, "metres.shp has coordinates from (530000.0, 180000.0)", "not longitude/latitude degrees")
        }
    }
}
