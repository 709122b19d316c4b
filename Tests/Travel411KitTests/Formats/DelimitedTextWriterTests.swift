import Foundation
import XCTest

@testable import Travel411Batch
@testable import Travel411Core

final class DelimitedTextWriterTests: XCTestCase {
    private func written(_ text: String, delimiter: Character) -> String {
        let buffer = GrowableByteArray(capacity: 64)
        DelimitedTextWriter(delimiter: UInt8(ascii: delimiter.unicodeScalars.first!)).appendField(text, to: buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    func testAFieldIsQuotedOnlyWhenItHoldsTheDelimiterAQuoteOrALineBreak() {
        for delimiter: Character in [",", ";", "\t", "|"] {
            XCTAssertEqual(written("plain text", delimiter: delimiter), "plain text")
            XCTAssertEqual(written("a\(delimiter)b", delimiter: delimiter), "\"a\(delimiter)b\"", "delimiter \(delimiter)")
            XCTAssertEqual(written("say \"hi\"", delimiter: delimiter), "\"say \"\"hi\"\"\"")
            XCTAssertEqual(written("two\nlines", delimiter: delimiter), "\"two\nlines\"")
            XCTAssertEqual(written("cr\rhere", delimiter: delimiter), "\"cr\rhere\"")
        }
    }

    func testOtherDelimitersAreAnyOtherText() {
        XCTAssertEqual(written("51,47", delimiter: ";"), "51,47")
        XCTAssertEqual(written("a;b|c", delimiter: ","), "a;b|c")
        XCTAssertEqual(written("a,b;c", delimiter: "|"), "a,b;c")
    }
}
