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

    /// The row-at-once check (`fieldsNeedQuotes`) against the field-by-field one, with special bytes in every
    /// position of the eight-byte steps and across them.
    func testARowNeedsQuotesExactlyWhenOneOfItsFieldsDoes() {
        let texts = [
            "", "Rambouillet", "Île-de-France", "1234567", "12345678", "123456789", "a,b", ",", "1234567,", "12345678;x",
            "say \"hi\"", "two\nlines", "cr\rhere", "semi;colon", "tab\there", "pipe|x", "Ōkuma-machi, Fukushima",
        ]
        for delimiter: UInt8 in [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: "|")] {
            let writer = DelimitedTextWriter(delimiter: delimiter)
            for first in texts {
                for second in texts {
                    for third in texts {
                        let fields = [first, second, third].map { Array($0.utf8) }
                        let expected = fields.contains { field in
                            field.withUnsafeBufferPointer { $0.baseAddress.map { writer.needsQuotes($0, count: field.count) } ?? false }
                        }
                        let row = Array(fields.joined(separator: [delimiter]))
                        let found = row.withUnsafeBufferPointer { bytes in
                            bytes.baseAddress.map { writer.fieldsNeedQuotes($0, count: bytes.count, delimiters: 2) }
                        }
                        XCTAssertEqual(found, expected, "\([first, second, third]) delimiter \(delimiter)")
                    }
                }
            }
        }
    }

    /// One special byte at every position of rows up to three sixteen-byte steps long, each step and the last
    /// sixteen bytes (which overlap the step before) included.
    func testASpecialByteIsFoundAtEveryPosition() {
        for delimiter: UInt8 in [UInt8(ascii: ","), UInt8(ascii: "\t"), UInt8(ascii: "|")] {
            let writer = DelimitedTextWriter(delimiter: delimiter)
            for length in 1...48 {
                let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                plain.withUnsafeBufferPointer { XCTAssertFalse(writer.fieldsNeedQuotes($0.baseAddress!, count: length, delimiters: 0)) }
                for position in 0..<length {
                    for special in [UInt8(ascii: "\""), 0x0A, 0x0D, delimiter] {
                        var row = plain
                        row[position] = special
                        row.withUnsafeBufferPointer { bytes in
                            XCTAssertTrue(
                                writer.fieldsNeedQuotes(bytes.baseAddress!, count: length, delimiters: 0),
                                "byte \(special) at \(position) of \(length)")
                        }
                        if special == delimiter {
                            row.withUnsafeBufferPointer { bytes in
                                XCTAssertFalse(
                                    writer.fieldsNeedQuotes(bytes.baseAddress!, count: length, delimiters: 1), "\(position) of \(length)")
                            }
                        }
                    }
                }
            }
        }
    }

    /// Rows long enough that the delimiters are counted in several sums (every 15 steps of sixteen bytes).
    func testLongRowsCountEveryDelimiter() {
        let writer = DelimitedTextWriter(delimiter: UInt8(ascii: ","))
        func needsQuotes(_ fields: [String], delimiters: Int) -> Bool? {
            let row = Array(fields.joined(separator: ",").utf8)
            return row.withUnsafeBufferPointer { bytes in
                bytes.baseAddress.map { writer.fieldsNeedQuotes($0, count: bytes.count, delimiters: delimiters) }
            }
        }
        for fieldCount in [2, 5, 31, 32, 100, 250, 600] {
            for text in ["a", "ab", "Rambouillet"] {
                let fields = Array(repeating: text, count: fieldCount)
                XCTAssertEqual(needsQuotes(fields, delimiters: fieldCount - 1), false, "\(fieldCount) × \(text)")
                XCTAssertEqual(needsQuotes(fields, delimiters: fieldCount - 2), true, "\(fieldCount) × \(text)")
                var withComma = fields
                withComma[fieldCount / 2] = "a,b"
                XCTAssertEqual(needsQuotes(withComma, delimiters: fieldCount - 1), true, "\(fieldCount) × \(text), one comma")
            }
        }
        // Rows of delimiters alone fill every byte lane's count, around the 15-step blocks they are summed in, and
        // end at every offset of the last sixteen bytes.
        for length in Array(8...48) + [239, 240, 241, 255, 256, 479, 480, 481, 2_039, 2_040, 2_041, 2_047, 4_080, 4_088, 10_000] {
            let row = [UInt8](repeating: UInt8(ascii: ","), count: length)
            row.withUnsafeBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return }
                XCTAssertFalse(writer.fieldsNeedQuotes(base, count: length, delimiters: length), "\(length) commas")
                XCTAssertTrue(writer.fieldsNeedQuotes(base, count: length, delimiters: length - 1), "\(length) commas")
            }
        }
    }
}
