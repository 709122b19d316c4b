import Foundation
import Travel411Core
import Travel411Guide
import Travel411OSM
import Travel411OSMReader
import XCTest

/// Inputs the fuzzers (Scripts/fuzz) found crashing or leaking, kept in Tests/Fixtures/fuzz/TARGET, each
/// read the way its command reads it: they must give their message, never crash the test process.
final class FuzzRegressionTests: XCTestCase {
    private static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz")

    private func readTrack(_ name: String) throws -> (fixes: Int, error: String?) {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("track/\(name)"))
        let reader = try TrackReader(data: data, name: name)
        var fixes = 0
        do {
            while let item = try reader.next() { if case .fix = item { fixes += 1 } }
            return (fixes, nil)
        } catch {
            return (fixes, "\(error)")
        }
    }

    /// `name` gives no fix and fails with "`name` `message`", its line and reason.
    private func assertRefused(_ name: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let read = try readTrack(name)
        XCTAssertEqual(read.fixes, 0, file: file, line: line)
        XCTAssertEqual(read.error, "\(name) \(message)", file: file, line: line)
    }

    /// Foundation's XMLParser read the NULL data of `<?F?>` as a C string (SIGSEGV in strlen).
    func testAProcessingInstructionWithoutDataIsNoCrash() throws {
        try assertRefused(
            "empty-processing-instruction.gpx",
            "line 1: the GPX is broken or cut off (no <gpx> element)")
    }

    /// Foundation's XMLParser trapped on an element name with a byte that is not UTF-8 inside the root.
    func testAnElementNameThatIsNotUTF8IsNoCrash() throws {
        try assertRefused(
            "element-name-not-utf8.gpx",
            "line 1: the GPX is broken or cut off (byte 0xFF is not UTF-8, which the file is in; give its encoding in the XML declaration)")
    }

    /// The fuzzer's own find (a GPX spliced into another's attribute, with a 0x01 and invalid UTF-8 further
    /// on): the points before the first bad byte are read, and the message gives its line.
    func testTheFuzzerFoundGPXReadsUpToItsFirstBadByte() throws {
        let read = try readTrack("fuzzer-crash-279020b1.gpx")
        let error = try XCTUnwrap(read.error)
        XCTAssertTrue(error.hasPrefix("fuzzer-crash-279020b1.gpx line "), error)
        XCTAssertTrue(error.contains("the GPX is broken or cut off"), error)
    }

    /// An ISO-8859-1 GPX keeps every byte: only UTF-8 documents are cut at a byte that is not UTF-8.
    func testADeclaredLatin1DocumentIsNotCut() throws {
        let gpx =
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><gpx version=\"1.1\"><trk><name>Caf\u{E9}</name><trkseg>"
            + "<trkpt lat=\"45.1\" lon=\"14.1\"><time>2010-10-04T05:13:19Z</time></trkpt></trkseg></trk></gpx>"
        let reader = try TrackReader(data: try XCTUnwrap(gpx.data(using: .isoLatin1)), name: "latin1.gpx")
        XCTAssertEqual(try reader.readAll().count, 1)
        XCTAssertEqual(reader.trackNames, ["Café"])
    }

    /// A processing instruction inside a real track is blanked, and the points around it read.
    func testProcessingInstructionsAreIgnored() throws {
        let gpx =
            "<?xml version=\"1.0\"?>\n<?xml-stylesheet?>\n<gpx version=\"1.1\"><trk><trkseg><?pi?>\n"
            + "<trkpt lat=\"45.1\" lon=\"14.1\"><time>2010-10-04T05:13:19Z</time></trkpt></trkseg></trk></gpx>"
        let reader = try TrackReader(data: Data(gpx.utf8), name: "pi.gpx")
        XCTAssertEqual(try reader.readAll().count, 1)
    }

    /// The fuzzer's second find: an OziExplorer GPX whose declared encoding is "I\u{13}O-8859-1", a name libxml2
    /// does not know, so it passed the Latin-1 bytes on as they were and the parser trapped on them.
    func testAnEncodingNameThatCannotBeReadIsRefused() throws {
        try assertRefused(
            "fuzzer-crash-170011c6.gpx",
            "line 1: the GPX is broken or cut off (the XML declaration names the encoding “I\\u{13}O-8859-1”, which cannot be read here; convert the file to UTF-8)"
        )
    }

    /// The fuzzer's third find: `<?xml?>` (no blank after `xml`) then a byte that is not UTF-8. The guard cut the
    /// document there and kept `<?xml?>` as if it were the declaration, but libxml2 reads it as a processing
    /// instruction without data, which crashed Foundation's XMLParser as in the first find.
    func testAnXMLProcessingInstructionWithoutDataIsNoCrash() throws {
        try assertRefused(
            "fuzzer-crash-234d5fed.gpx",
            "line 2: the GPX is broken or cut off (byte 0xDF is not UTF-8, which the file is in; give its encoding in the XML declaration)")
    }

    /// Only `<?xml` and a blank make a declaration: `<?xml?>` and `<?xml-stylesheet?>` at the start are
    /// processing instructions, blanked like the others, and the track after them reads.
    func testProcessingInstructionsNamedLikeTheDeclarationAreIgnored() throws {
        for start in ["<?xml?>", "<?xml-stylesheet?>", "\u{FEFF}<?xml?>"] {
            let gpx =
                start + "\n<gpx version=\"1.1\"><trk><trkseg>"
                + "<trkpt lat=\"45.1\" lon=\"14.1\"><time>2010-10-04T05:13:19Z</time></trkpt></trkseg></trk></gpx>"
            let reader = try TrackReader(data: Data(gpx.utf8), name: "pi.gpx")
            XCTAssertEqual(try reader.readAll().count, 1, start)
        }
    }

    /// Windows-1252 is converted before the parse, so its names read right.
    func testAWindows1252DocumentIsConverted() throws {
        let gpx =
            "<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<gpx version=\"1.1\"><trk><name>Stra\u{DF}e \u{20AC}</name><trkseg>"
            + "<trkpt lat=\"45.1\" lon=\"14.1\"><time>2010-10-04T05:13:19Z</time></trkpt></trkseg></trk></gpx>"
        let reader = try TrackReader(data: try XCTUnwrap(gpx.data(using: .windowsCP1252)), name: "cp1252.gpx")
        XCTAssertEqual(try reader.readAll().count, 1)
        XCTAssertEqual(reader.trackNames, ["Stra\u{DF}e \u{20AC}"])
    }

    /// libFuzzer's mutation of a `pbf` seed: a string-table entry with NUL bytes inside it, which libosmium stored
    /// as a tag and then walked past the tag list's end (a heap overflow under AddressSanitizer). Refused now.
    func testAPBFTagWithANulByteInsideIsRefused() throws {
        let path = Self.fixtures.appendingPathComponent("pbf/fuzzer-crash-7efda339.osm.pbf").path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-fuzz-pbf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        XCTAssertThrowsError(try OSMExtractReader(path: path, temporaryDirectory: directory.path).read { _ in }) { error in
            XCTAssertEqual(
                "\(error)",
                "\(path): is not a valid OpenStreetMap extract: PBF error: way 85 has a tag with a NUL byte inside its key or value (after way 85)"
            )
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }
}
