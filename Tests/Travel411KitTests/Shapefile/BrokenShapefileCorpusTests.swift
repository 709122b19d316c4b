import Travel411Core
import Travel411Shapefile
import XCTest

/// Every shapefile of the real broken-file corpus (Tests/Fixtures/shapefiles, copied from
/// samples/broken-shapefiles: pyshp, mbostock/shapefile, shapefile-rs, Fiona, shapefile-js, sf) has one exact
/// outcome: read with these counts, encoding and warnings, or refused with this message. Nothing may crash,
/// hang or be read silently wrong, so any change in what a user would see fails here.
final class BrokenShapefileCorpusTests: XCTestCase {
    /// What a user gets from one file: "refused: <message>" or "<kind> <records> records (<shapes> shapes,
    /// <nulls> null, <invalid> invalid), <encoding>" followed by one "warning: …" line per warning. Paths are
    /// relative to Tests/Fixtures/shapefiles so the outcomes do not depend on where the repository lies.
    /// A file refused for want of its .shx is also read with the index rebuilt (as GDAL's SHAPE_RESTORE_SHX
    /// does, which the message suggests), so its shapes, DBF and sidecars are tried too.
    static func outcome(of relativePath: String) -> String {
        let root = ShapefileFixtures.shapefiles.path + "/"
        let direct = outcome(ofFile: root + relativePath) { $0.replacingOccurrences(of: root, with: "") }
        guard direct.hasPrefix("refused: "), direct.contains(".shx is missing") else { return direct }
        let source = String(relativePath.prefix { $0 != "/" })
        let name = URL(fileURLWithPath: relativePath).deletingPathExtension().lastPathComponent
        do {
            let directory = try TestShapefileWriter.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let staged = try ShapefileFixtures.stage(source, name, in: directory, restoringIndex: true)
            let rebuilt = outcome(ofFile: staged) { $0.replacingOccurrences(of: directory.path + "/", with: source + "/") }
            return direct + "\nwith the .shx rebuilt: " + rebuilt
        } catch {
            return direct + "\nthe .shx cannot be rebuilt: \(error)"
        }
    }

    private static func outcome(ofFile path: String, relative: (String) -> String) -> String {
        let reader: ShapefileReader
        do {
            reader = try ShapefileReader(path: path)
        } catch {
            return "refused: " + relative("\(error)")
        }
        var shapes = 0, nulls = 0, invalid: [String] = []
        for index in 0..<reader.recordCount {
            do {
                switch try reader.record(at: index) {
                case .shape: shapes += 1
                case .null: nulls += 1
                case .invalid(let reason): invalid.append("record \(index + 1): \(reason)")
                }
            } catch {
                return "refused at record \(index + 1): " + relative("\(error)")
            }
        }
        var lines = [
            "\(reader.geometryKind.rawValue) \(reader.recordCount) records (\(shapes) shapes, \(nulls) null, "
                + "\(invalid.count) invalid), \(reader.encodingName)"
        ]
        lines += invalid.prefix(3).map { "invalid " + relative($0) }
        lines += reader.warnings.map { "warning: " + relative($0) }
        return lines.joined(separator: "\n")
    }

    private func assertOutcomes(_ expected: [(path: String, outcome: String)], file: StaticString = #filePath, line: UInt = #line) {
        for (path, outcome) in expected {
            XCTAssertEqual(Self.outcome(of: path), outcome, path, file: file, line: line)
        }
    }

    /// The corpus and this test agree: every .shp in the fixtures has an expected outcome below.
    func testEveryCorpusShapefileHasAnExpectedOutcome() throws {
        let listed = Set(Self.expected.flatMap { $0.map(\.path) })
        let present = try FileManager.default.subpathsOfDirectory(atPath: ShapefileFixtures.shapefiles.path)
            .filter { $0.lowercased().hasSuffix(".shp") }
        XCTAssertEqual(Set(present).subtracting(listed).sorted(), [])
        XCTAssertEqual(listed.subtracting(present).sorted(), [])
    }

    static let expected: [[(path: String, outcome: String)]] = [pyshp, mbostock, shapefileRS, fiona, shapefileJS, sf, projected]

    func testPyshp() { assertOutcomes(Self.pyshp) }
    func testMbostockShapefile() { assertOutcomes(Self.mbostock) }
    func testShapefileRS() { assertOutcomes(Self.shapefileRS) }
    func testFiona() { assertOutcomes(Self.fiona) }
    func testShapefileJS() { assertOutcomes(Self.shapefileJS) }
    func testSf() { assertOutcomes(Self.sf) }
    func testProjected() { assertOutcomes(Self.projected) }

    /// Prints every outcome; run with TRAVEL411_PRINT_CORPUS=1 after a deliberate change, review, paste.
    func testPrintOutcomesWhenAsked() throws {
        guard ProcessInfo.processInfo.environment["TRAVEL411_PRINT_CORPUS"] != nil else { return }
        let present = try FileManager.default.subpathsOfDirectory(atPath: ShapefileFixtures.shapefiles.path)
            .filter { $0.lowercased().hasSuffix(".shp") }.sorted()
        for path in present {
            print("(\"\(path)\", \"\"\"\n\(Self.outcome(of: path))\n\"\"\"),")
        }
    }

    static let pyshp: [(path: String, outcome: String)] = [
        (
            "pyshp/corrupt_too_long.shp",
            """
            polyline 10 records (10 shapes, 0 null, 0 invalid), UTF-8 (no code page given; values that are not UTF-8 read as Latin-1)
            warning: pyshp/corrupt_too_long.shp has no .prj; assuming WGS 84 longitude/latitude (EPSG:4326)
            warning: pyshp/corrupt_too_long.shp is 1 byte longer than its header says; the extra bytes are ignored
            warning: pyshp/corrupt_too_long.dbf is 5 bytes longer than its header says; the extra bytes are ignored
            """
        ),
        (
            "pyshp/latin1.shp",
            """
            refused: pyshp/latin1.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES latin1_fixed.shp latin1.shp`
            with the .shx rebuilt: polygon 1 records (1 shapes, 0 null, 0 invalid), UTF-8 (no code page given; values that are not UTF-8 read as Latin-1)
            warning: pyshp/latin1.shp has no .prj; assuming WGS 84 longitude/latitude (EPSG:4326)
            """
        ),
    ]
    static let mbostock: [(path: String, outcome: String)] = [
        (
            "mbostock-shapefile/boolean-property.shp",
            """
            point 9 records (9 shapes, 0 null, 0 invalid), windows-1252 (DBF code page 0x57)
            """
        ),
        (
            "mbostock-shapefile/date-property.shp",
            """
            point 3 records (3 shapes, 0 null, 0 invalid), windows-1252 (DBF code page 0x57)
            """
        ),
        (
            "mbostock-shapefile/empty.shp",
            """
            polyline 0 records (0 shapes, 0 null, 0 invalid), windows-1252 (DBF code page 0x57)
            """
        ),
        (
            "mbostock-shapefile/ignore-properties.shp",
            """
            refused: mbostock-shapefile/ignore-properties.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES ignore-properties_fixed.shp ignore-properties.shp`
            with the .shx rebuilt: refused: mbostock-shapefile/ignore-properties.dbf is missing: a shapefile needs .shp, .shx and .dbf
            """
        ),
        (
            "mbostock-shapefile/latin1-property.shp",
            """
            point 1 records (1 shapes, 0 null, 0 invalid), windows-1252 (DBF code page 0x57)
            """
        ),
        (
            "mbostock-shapefile/multipointm.shp",
            """
            refused: mbostock-shapefile/multipointm.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES multipointm_fixed.shp multipointm.shp`
            with the .shx rebuilt: refused: mbostock-shapefile/multipointm.dbf is missing: a shapefile needs .shp, .shx and .dbf
            """
        ),
        (
            "mbostock-shapefile/null.shp",
            """
            point 9 records (5 shapes, 4 null, 0 invalid), windows-1252 (DBF code page 0x57)
            """
        ),
        (
            "mbostock-shapefile/number-null-property.shp",
            """
            refused: mbostock-shapefile/number-null-property.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES number-null-property_fixed.shp number-null-property.shp`
            with the .shx rebuilt: polygon 4 records (4 shapes, 0 null, 0 invalid), UTF-8 (no code page given; values that are not UTF-8 read as Latin-1)
            warning: mbostock-shapefile/number-null-property.shp has no .prj; assuming WGS 84 longitude/latitude (EPSG:4326)
            """
        ),
        (
            "mbostock-shapefile/pointm.shp",
            """
            refused: mbostock-shapefile/pointm.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES pointm_fixed.shp pointm.shp`
            with the .shx rebuilt: refused: mbostock-shapefile/pointm.dbf is missing: a shapefile needs .shp, .shx and .dbf
            """
        ),
        (
            "mbostock-shapefile/polygonm.shp",
            """
            refused: mbostock-shapefile/polygonm.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES polygonm_fixed.shp polygonm.shp`
            with the .shx rebuilt: refused: mbostock-shapefile/polygonm.dbf is missing: a shapefile needs .shp, .shx and .dbf
            """
        ),
        (
            "mbostock-shapefile/polylinem.shp",
            """
            refused: mbostock-shapefile/polylinem.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES polylinem_fixed.shp polylinem.shp`
            with the .shx rebuilt: refused: mbostock-shapefile/polylinem.dbf is missing: a shapefile needs .shp, .shx and .dbf
            """
        ),
        (
            "mbostock-shapefile/singleton.shp",
            """
            refused: mbostock-shapefile/singleton.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES singleton_fixed.shp singleton.shp`
            with the .shx rebuilt: point 1 records (1 shapes, 0 null, 0 invalid), windows-1252 (DBF code page 0x57)
            warning: mbostock-shapefile/singleton.shp has no .prj; assuming WGS 84 longitude/latitude (EPSG:4326)
            """
        ),
        (
            "mbostock-shapefile/utf8-property.shp",
            """
            point 1 records (1 shapes, 0 null, 0 invalid), UTF-8 (.cpg)
            """
        ),
    ]
    static let shapefileRS: [(path: String, outcome: String)] = [
        (
            "shapefile-rs/file_cp936.shp",
            """
            polyline 1 records (1 shapes, 0 null, 0 invalid), CP936 (.cpg)
            warning: shapefile-rs/file_cp936.shp has no .prj; assuming WGS 84 longitude/latitude (EPSG:4326)
            warning: shapefile-rs/file_cp936.cpg says CP936 but shapefile-rs/file_cp936.dbf has code page 0x01 (CP437); using CP936 from the .cpg
            """
        ),
        (
            "shapefile-rs/linem.shp",
            """
            refused: shapefile-rs/linem.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES linem_fixed.shp linem.shp`
            with the .shx rebuilt: refused: shapefile-rs/linem.dbf is missing: a shapefile needs .shp, .shx and .dbf
            """
        ),
        (
            "shapefile-rs/linez.shp",
            """
            refused: shapefile-rs/linez.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES linez_fixed.shp linez.shp`
            with the .shx rebuilt: refused: shapefile-rs/linez.dbf is missing: a shapefile needs .shp, .shx and .dbf
            """
        ),
        (
            "shapefile-rs/multipatch.shp",
            """
            refused: shapefile-rs/multipatch.shp has unsupported shape type MultiPatch: only points, multipoints, polylines and polygons can be imported
            """
        ),
        (
            "shapefile-rs/multipointz.shp",
            """
            refused: shapefile-rs/multipointz.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES multipointz_fixed.shp multipointz.shp`
            with the .shx rebuilt: refused: shapefile-rs/multipointz.dbf is missing: a shapefile needs .shp, .shx and .dbf
            """
        ),
        (
            "shapefile-rs/pointm.shp",
            """
            refused: shapefile-rs/pointm.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES pointm_fixed.shp pointm.shp`
            with the .shx rebuilt: refused: shapefile-rs/pointm.dbf is missing: a shapefile needs .shp, .shx and .dbf
            """
        ),
        (
            "shapefile-rs/pointz.shp",
            """
            refused: shapefile-rs/pointz.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES pointz_fixed.shp pointz.shp`
            with the .shx rebuilt: refused: shapefile-rs/pointz.dbf is missing: a shapefile needs .shp, .shx and .dbf
            """
        ),
        (
            "shapefile-rs/polygon_hole.shp",
            """
            refused: shapefile-rs/polygon_hole.dbf is missing: a shapefile needs .shp, .shx and .dbf
            """
        ),
        (
            "shapefile-rs/polygonm.shp",
            """
            refused: shapefile-rs/polygonm.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES polygonm_fixed.shp polygonm.shp`
            with the .shx rebuilt: refused: shapefile-rs/polygonm.dbf is missing: a shapefile needs .shp, .shx and .dbf
            """
        ),
        (
            "shapefile-rs/polygonz.shp",
            """
            refused: shapefile-rs/polygonz.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES polygonz_fixed.shp polygonz.shp`
            with the .shx rebuilt: refused: shapefile-rs/polygonz.dbf is missing: a shapefile needs .shp, .shx and .dbf
            """
        ),
    ]
    static let fiona: [(path: String, outcome: String)] = [
        (
            "fiona/coutwildrnp.shp",
            """
            polygon 67 records (67 shapes, 0 null, 0 invalid), ISO-8859-1 (.cpg)
            """
        ),
        (
            "fiona/gre.shp",
            """
            polygon 1 records (1 shapes, 0 null, 0 invalid), UTF-8 (.cpg)
            """
        ),
        (
            "fiona/test_tin.shp",
            """
            refused: fiona/test_tin.shp has unsupported shape type MultiPatch: only points, multipoints, polylines and polygons can be imported
            """
        ),
    ]
    static let shapefileJS: [(path: String, outcome: String)] = [
        (
            "shapefile-js/bad.shp",
            """
            refused: shapefile-js/bad.shp is not a shapefile: it starts with file code 57739530, not 9994
            """
        ),
        (
            "shapefile-js/codepage.shp",
            """
            point 2 records (2 shapes, 0 null, 0 invalid), windows-1250 (.cpg)
            """
        ),
        (
            "shapefile-js/export_multipointz.shp",
            """
            refused: shapefile-js/export_multipointz.shx, record 1 points at bytes 100–284 of shapefile-js/export_multipointz.shp, which ends at byte 276: the .shp is truncated or the .shx is corrupt
            """
        ),
        (
            "shapefile-js/export_polylinez.shp",
            """
            polyline 1 records (1 shapes, 0 null, 0 invalid), UTF-8 (no code page given; values that are not UTF-8 read as Latin-1)
            """
        ),
        (
            "shapefile-js/htmlcpg.shp",
            """
            refused: shapefile-js/htmlcpg.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES htmlcpg_fixed.shp htmlcpg.shp`
            with the .shx rebuilt: point 2 records (2 shapes, 0 null, 0 invalid), UTF-8 (no code page given; values that are not UTF-8 read as Latin-1)
            warning: shapefile-js/htmlcpg.cpg does not name a code page (it starts with “<!DOCTYPE html><html><head> <m…”); ignoring it
            """
        ),
        (
            "shapefile-js/htmlprj.shp",
            """
            refused: shapefile-js/htmlprj.shx is missing: a shapefile needs .shp, .shx and .dbf; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES htmlprj_fixed.shp htmlprj.shp`
            with the .shx rebuilt: point 2 records (2 shapes, 0 null, 0 invalid), UTF-8 (.cpg)
            warning: shapefile-js/htmlprj.prj is not a coordinate system description that can be read; assuming WGS 84 longitude/latitude (EPSG:4326)
            """
        ),
        (
            "shapefile-js/utf.shp",
            """
            point 2 records (2 shapes, 0 null, 0 invalid), UTF-8 (.cpg)
            """
        ),
    ]
    static let sf: [(path: String, outcome: String)] = [
        (
            "sf/nc.shp",
            """
            refused: sf/nc.prj is in GCS_North_American_1927, not WGS 84 (EPSG:4326); reproject it first, e.g. `ogr2ogr -t_srs EPSG:4326 nc_wgs84.shp nc.shp`
            """
        ),
        (
            "sf/olinda1.shp",
            """
            refused: sf/olinda1.prj is in GRS 1980(IUGG, 1980), not WGS 84 (EPSG:4326); reproject it first, e.g. `ogr2ogr -t_srs EPSG:4326 olinda1_wgs84.shp olinda1.shp`
            """
        ),
        (
            "sf/storms_xyz.shp",
            """
            polyline 71 records (71 shapes, 0 null, 0 invalid), UTF-8 (no code page given; values that are not UTF-8 read as Latin-1)
            warning: sf/storms_xyz.shp has no .prj; assuming WGS 84 longitude/latitude (EPSG:4326)
            """
        ),
        (
            "sf/storms_xyzm.shp",
            """
            polyline 71 records (71 shapes, 0 null, 0 invalid), UTF-8 (no code page given; values that are not UTF-8 read as Latin-1)
            warning: sf/storms_xyzm.shp has no .prj; assuming WGS 84 longitude/latitude (EPSG:4326)
            """
        ),
    ]
    static let projected: [(path: String, outcome: String)] = [
        (
            "projected/london_boroughs_bng.shp",
            """
            refused: projected/london_boroughs_bng.prj is in British_National_Grid, not WGS 84 (EPSG:4326); reproject it first, e.g. `ogr2ogr -t_srs EPSG:4326 london_boroughs_bng_wgs84.shp london_boroughs_bng.shp`
            """
        )
    ]
}
