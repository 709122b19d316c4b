import Foundation
import XCTest

@testable import Travel411Answers
@testable import Travel411Core

/// The numbers a `/reverse` answer writes as bytes, against the text Swift and Nominatim give them.
final class NominatimNumberTextTests: XCTestCase {
    func testSevenDecimalsAsNominatimPrintsAnObjectsCoordinates() {
        let cases: [(Double, String)] = [
            (9.510312, "9.5103120"), (-0.45, "-0.4500000"), (0, "0.0000000"), (-0.00000001, "-0.0000000"),
            (60.16999996, "60.1700000"), (60.16999995, "60.1699999"), (-179.99999999, "-180.0000000"), (47.1410001, "47.1410001"),
            (1e-7, "0.0000001"),
            // 60.16999995 is a little under in binary; exactly half way (1/256 × 10^7 = 39,062.5) goes to even, as
            // printf and Python round.
            (0.00390625, "0.0039062"), (-0.00390625, "-0.0039062"),
        ]
        for (value, text) in cases { XCTAssertEqual(DecimalText.sevenDecimals(value), text, "\(value)") }
        // Every value as printf writes it, halves and near-halves included.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200_000 {
            let value = Double.random(in: -180...180, using: &generator)
            let near = (value * 1e7).rounded(.towardZero) / 1e7 + 0.5e-7
            for sample in [value, near, near.nextUp, near.nextDown] {
                XCTAssertEqual(DecimalText.sevenDecimals(sample), String(format: "%.7f", sample), "\(sample)")
            }
        }
        // Out of the fixed form's range: the shortest text, as every other number.
        XCTAssertEqual(DecimalText.sevenDecimals(.infinity), "null")
        XCTAssertEqual(DecimalText.sevenDecimals(2e11), "200000000000")
    }

    /// The XML answer's timestamp, as a POSIX-locale DateFormatter writes it in UTC.
    func testTheXMLTimestampIsWhatADateFormatterWrites() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+00:00'"
        XCTAssertEqual(NominatimFormatter.httpDate(Date(timeIntervalSince1970: 1_796_085_244.9)), "Tue, 01 Dec 2026 00:34:04 +00:00")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            // Whole milliseconds: ICU rounds to them first (x.9997 s is the next second), the calendar fields cut.
            let date = Date(timeIntervalSince1970: Double(Int64.random(in: 0..<4_102_444_800_000, using: &generator)) / 1000)
            XCTAssertEqual(NominatimFormatter.httpDate(date), formatter.string(from: date), "\(date.timeIntervalSince1970)")
        }
    }

    func testDecimalDigitsMatchSwiftsOwn() {
        for value: UInt64 in [0, 7, 10, 99, 100, 4_503_599_627_370_495, .max] {
            var bytes: [UInt8] = []
            JSONText.appendDecimal(value, to: &bytes)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), String(value))
        }
    }

    func testStringsAreEscapedAsTheyAreAsText() {
        for text in ["Städtle", "a \"quoted\" name", "back\\slash", "tab\there", "", "Ευρώπη"] {
            var bytes: [UInt8] = []
            JSONText.append(text, to: &bytes)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), JSONText.string(text))
        }
    }
}
