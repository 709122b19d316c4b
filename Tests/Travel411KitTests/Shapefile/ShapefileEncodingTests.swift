import XCTest

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411Shapefile
@testable import Travel411Store

/// DBF text is decoded as the .cpg says, else as the DBF language driver id says, else as UTF-8 with a
/// Latin-1 reading for values that are not UTF-8.
final class ShapefileEncodingTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TestShapefileWriter.makeTemporaryDirectory()
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    /// A one-point shapefile whose NAME field holds `bytes`.
    private func readName(_ bytes: [UInt8], cpg: String?, languageDriver: UInt8 = 0, width: Int = 50) throws -> (ShapefileReader, String?) {
        let shp = try TestShapefileWriter.write(
            directory: directory, name: "names-\(UUID().uuidString)", kind: .point, fields: [.string("NAME", width: width)],
            records: [.point(x: 1, y: 1, values: [.bytes(bytes)])], cpg: cpg, languageDriver: languageDriver)
        let reader = try ShapefileReader(path: shp.path)
        return (reader, reader.string(record: 0, field: 0))
    }

    // MARK: Published samples

    func testLatin1WithoutCodePageFallsBackPerValue() throws {
        let shp = try ShapefileFixtures.stage("pyshp", "latin1", in: directory, restoringIndex: true)
        let reader = try ShapefileReader(path: shp)
        XCTAssertEqual(reader.encodingName, "UTF-8 (no code page given; values that are not UTF-8 read as Latin-1)")
        XCTAssertEqual(reader.string(record: 0, field: reader.fieldIndex("name") ?? -1), "Ñandú")
    }

    func testISO88591FromCpg() throws {
        let reader = try ShapefileReader(path: ShapefileFixtures.path("fiona", "coutwildrnp"))
        XCTAssertEqual(reader.encodingName, "ISO-8859-1 (.cpg)")
        XCTAssertEqual(reader.recordCount, 67)
        XCTAssertEqual(reader.string(record: 0, field: reader.fieldIndex("NAME") ?? -1), "Mount Naomi Wilderness")
        XCTAssertEqual(reader.warnings, [])
    }

    func testWindows1250FromCpg() throws {
        let reader = try ShapefileReader(path: ShapefileFixtures.path("shapefile-js", "codepage"))
        XCTAssertEqual(reader.encodingName, "windows-1250 (.cpg)")
        XCTAssertEqual(reader.string(record: 1, field: 0), "Hněvošický háj")
    }

    func testCpgWinsOverADisagreeingLanguageDriver() throws {
        let reader = try ShapefileReader(path: ShapefileFixtures.path("shapefile-rs", "file_cp936"))
        XCTAssertEqual(reader.encodingName, "CP936 (.cpg)")
        XCTAssertEqual(reader.string(record: 0, field: 0), "测试中文")
        XCTAssertTrue(
            reader.warnings.contains {
                $0.contains("file_cp936.cpg says CP936 but") && $0.contains("has code page 0x01 (CP437); using CP936 from the .cpg")
            }, "\(reader.warnings)")
    }

    func testAnHTMLPageForACpgIsIgnoredWithAWarning() throws {
        let shp = try ShapefileFixtures.stage("shapefile-js", "htmlcpg", in: directory, restoringIndex: true)
        let reader = try ShapefileReader(path: shp)
        XCTAssertEqual(reader.encodingName, "UTF-8 (no code page given; values that are not UTF-8 read as Latin-1)")
        XCTAssertEqual(reader.string(record: 1, field: 0), "Hněvošický háj")
        XCTAssertEqual(reader.warnings.count, 1)
        XCTAssertTrue(
            reader.warnings[0].contains("htmlcpg.cpg does not name a code page (it starts with “<!DOCTYPE html>"), reader.warnings[0])
    }

    // MARK: Written by the tests

    func testLanguageDriver0x57IsWindows1252() throws {
        let (reader, name) = try readName([0x80, 0x20, 0xE9, 0x74, 0xE9], cpg: nil, languageDriver: 0x57)
        XCTAssertEqual(reader.encodingName, "windows-1252 (DBF code page 0x57)")
        XCTAssertEqual(name, "€ été")
    }

    func testCpgISO88591DiffersFromWindows1252() throws {
        let (_, name) = try readName([0x80, 0xE9], cpg: "ISO-8859-1")
        XCTAssertEqual(name, "\u{80}é")
    }

    func testCyrillicFromAnsi1251Cpg() throws {
        let moscowIn1251: [UInt8] = [0xCC, 0xEE, 0xF1, 0xEA, 0xE2, 0xE0]
        let (reader, name) = try readName(moscowIn1251, cpg: "ANSI 1251\r\n")
        XCTAssertEqual(reader.encodingName, "windows-1251 (.cpg)")
        XCTAssertEqual(name, "Москва")
    }

    func testUTF8ValuesThatAreNotUTF8AreReadAsLatin1() throws {
        let (reader, name) = try readName(Array("Caf".utf8) + [0xE9], cpg: "UTF-8")
        XCTAssertEqual(reader.encodingName, "UTF-8 (.cpg)")
        XCTAssertEqual(name, "Café")
    }

    func testAUTF8ValueCutInsideACharacterKeepsTheWholeCharacters() throws {
        // "abcdé" is 6 bytes; a 5-byte field ends halfway through "é".
        let (_, name) = try readName(Array("abcdé".utf8), cpg: "UTF-8", width: 5)
        XCTAssertEqual(name, "abcd")
    }

    func testAnUnknownCodePageFallsBackWithAWarning() throws {
        let (reader, name) = try readName(Array("plain".utf8), cpg: "EBCDIC-FANCY-9")
        XCTAssertEqual(name, "plain")
        XCTAssertEqual(reader.encodingName, "UTF-8 (no code page given; values that are not UTF-8 read as Latin-1)")
        XCTAssertTrue(
            reader.warnings.contains { $0.contains("names EBCDIC-FANCY-9, which this system cannot decode") }, "\(reader.warnings)")
    }

    func testInvalidBytesInAMultiByteCodePageBecomeReplacementCharacters() throws {
        let (_, name) = try readName([0xB2, 0xE2, 0x41, 0xFF], cpg: "936")
        XCTAssertEqual(name, "测A\u{FFFD}")
    }

    func testAMultiByteValueCutInsideACharacterKeepsTheWholeCharacters() throws {
        // "测试" in GBK is B2E2 CAD4; a 3-byte field ends halfway through "试".
        let (_, name) = try readName([0xB2, 0xE2, 0xCA], cpg: "GBK", width: 3)
        XCTAssertEqual(name, "测")
    }

    // MARK: Names of code pages

    func testCodePageFileNames() {
        let expectations: [(String, String?)] = [
            ("UTF-8", "UTF-8"), ("utf8", "UTF-8"), ("65001", "UTF-8"), ("\u{FEFF}UTF-8\n", "UTF-8"),
            ("ISO-8859-1", "ISO-8859-1"), ("88591", "ISO-8859-1"), ("ISO 8859-2", "ISO-8859-2"), ("28605", "ISO-8859-15"),
            ("1252", "windows-1252"), ("ANSI 1252", "windows-1252"), ("CP1252", "windows-1252"),
            ("windows-1252", "windows-1252"), ("1250", "windows-1250"), ("ANSI 1250", "windows-1250"),
            ("936", "CP936"), ("GBK", "CP936"), ("CP437", "CP437"), ("Big5", "CP950"), ("Shift_JIS", "CP932"),
            ("", nil), ("<!DOCTYPE html><html>", nil),
        ]
        for (text, expected) in expectations {
            XCTAssertEqual(DBFTextEncoding.fromCodePageFile(text)?.name, expected, "“\(text)”")
        }
    }

    func testLanguageDriverIds() {
        let expectations: [(UInt8, String?)] = [
            (0x57, "windows-1252"), (0x03, "windows-1252"), (0x01, "CP437"), (0x02, "CP850"),
            (0x4D, "CP936"), (0xC8, "windows-1250"), (0xC9, "windows-1251"), (0x26, "CP866"), (0x00, nil), (0xFF, nil),
        ]
        for (id, expected) in expectations {
            XCTAssertEqual(DBFTextEncoding.fromLanguageDriver(id)?.name, expected, String(id, radix: 16))
        }
    }

    func testEveryNamedCodePageCanBeDecodedHere() {
        for number in [
            437, 850, 852, 866, 874, 932, 936, 949, 950, 1250, 1251, 1252, 1253, 1254, 1255, 1256, 1257, 1258, 10000, 20866, 28592, 54936,
        ] {
            guard let encoding = DBFTextEncoding.codePage(number) else { return XCTFail("code page \(number)") }
            XCTAssertNotNil(DBFTextDecoder(encoding: encoding), encoding.name)
        }
    }
}
