import Foundation
import XCTest

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411Store

final class DecimalMarkTests: XCTestCase {
    /// Parses `text` with `mark`; a spare byte keeps the pointer valid for empty text.
    private func parse(_ text: String, _ mark: DecimalMark) -> Double? {
        let bytes = Array(text.utf8) + [0]
        return bytes.withUnsafeBufferPointer { mark.parse($0.baseAddress!, from: 0, to: $0.count - 1) }
    }

    func testTheFieldDelimiterDecidesTheMark() {
        XCTAssertEqual(DecimalMark(fieldDelimiter: UInt8(ascii: ",")), .point)
        for delimiter in [";", "\t", "|"] {
            XCTAssertEqual(DecimalMark(fieldDelimiter: UInt8(ascii: Unicode.Scalar(delimiter)!)), .pointOrComma, delimiter)
        }
    }

    func testOneDecimalCommaBetweenDigitsReadsAsAPoint() {
        let cases: [(String, Double)] = [
            ("51,47", 51.47), ("-0,45", -0.45), ("+0,1", 0.1), (" 51,5\t", 51.5), ("0,000001", 0.000001),
            ("-179,999999999999", -179.999999999999), ("12345678901234567890,5", 12345678901234567890.5),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(parse(text, .pointOrComma)?.bitPattern, expected.bitPattern, text)
            XCTAssertNil(parse(text, .point), "'\(text)' must stay an error where ',' is the delimiter")
        }
    }

    func testEverythingElseWithACommaIsRejected() {
        for rejected in ["1,234,5", "1.234,5", "1,5.2", ",5", "5,", "-,5", "1,5e3", "1 ,5", "1, 5", "--1,5", ",", "1,,5", "a,5", "0x1,5"] {
            XCTAssertNil(parse(rejected, .pointOrComma), "'\(rejected)' should not parse")
        }
    }

    func testAPointStillReadsInEveryFile() {
        for mark in [DecimalMark.point, .pointOrComma] {
            XCTAssertEqual(parse("51.47", mark), 51.47)
            XCTAssertEqual(parse("-1e-3", mark), -0.001)
            XCTAssertNil(parse("", mark))
            XCTAssertNil(parse("abc", mark))
        }
    }
}
