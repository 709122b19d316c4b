import Foundation
import XCTest

@testable import Travel411Batch
@testable import Travel411Import
@testable import Travel411Store

final class CSVDelimiterDetectorTests: XCTestCase {
    private func detected(_ text: String) -> CSVDelimiter {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { CSVDelimiterDetector.delimiter(ofHeaderIn: $0) }
    }

    func testASemicolonHeaderIsSemicolonSeparated() {
        XCTAssertEqual(detected("id;lat;lon\n1;51,47;-0,45\n"), .semicolon)
        XCTAssertEqual(detected("Ort;Breite;Länge"), .semicolon, "a header without a line end")
        XCTAssertEqual(detected("name;\"city, country\";lat;lon\n"), .semicolon, "a comma inside quotes does not count")
    }

    func testACommaHeaderStaysComma() {
        XCTAssertEqual(detected("id,lat,lon\n1;2;3;4;5\n"), .comma, "only the header counts")
        XCTAssertEqual(detected("id,\"note; with; semicolons\",lat,lon\n"), .comma)
        XCTAssertEqual(detected("\"a;b;c;d\",lat\n"), .comma)
    }

    func testSemicolonsMustOutnumberCommas() {
        XCTAssertEqual(detected("a;b,c\n"), .comma)
        XCTAssertEqual(detected("lat\n"), .comma)
        XCTAssertEqual(detected(""), .comma)
    }

    func testQuotesAreReadAsTheRecordSplitterReadsThem() {
        XCTAssertEqual(detected("\"say \"\"a,b,c\"\"\";lat;lon\n"), .semicolon, "doubled quotes stay inside the field")
        XCTAssertEqual(detected("5\" disk;lat;lon\n"), .semicolon, "a quote inside an unquoted field is text")
        XCTAssertEqual(detected("\"two\nlines, here\";lat;lon\n"), .semicolon, "a quoted line break does not end the header")
    }

    func testBlankLinesAndCRLFBeforeTheHeaderAreSkipped() {
        XCTAssertEqual(detected("\n\r\n\nid;lat;lon\r\n1,2,3,4\r\n"), .semicolon)
        XCTAssertEqual(detected("\r\nid,lat,lon\r\n1;2;3;4\r\n"), .comma)
    }
}
