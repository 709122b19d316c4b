import XCTest

@testable import Travel411Batch

/// The splitter's word-at-a-time scan for the end of an unquoted field, against the byte-by-byte scan it
/// replaced, on random bytes dense in delimiters, quotes, CR and LF, at every offset and length.
final class DelimitedRecordSplitterTests: XCTestCase {
    private static func byteByByte(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, delimiter: UInt8) -> Int {
        var index = start
        while index < end, bytes[index] != delimiter, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        return index
    }

    func testNextDelimiterOrNewlineMatchesTheByteScan() {
        var generator = SystemRandomNumberGenerator()
        var differences: [String] = []
        let alphabets: [[UInt8]] = [
            Array("0123456789.-,\"\r\n ;\t|".utf8), Array("ab,\n".utf8), [0, 0x80, 0xFF, 0x7F, 0x0A, 0x2C, 0x09, 0x01, 0x81, 0x8A],
        ]
        for delimiter in [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: "|"), 0, 0x80, 0xFF] {
            let splitter = DelimitedRecordSplitter(delimiter: delimiter)
            for round in 0..<600 {
                let alphabet = alphabets[round % alphabets.count]
                let count = Int.random(in: 0...40, using: &generator)
                let bytes = (0..<count).map { _ in
                    // Mostly one plain byte, so that stops lie in every lane and across words.
                    Int.random(in: 0..<4, using: &generator) == 0 ? alphabet.randomElement(using: &generator)! : UInt8(ascii: "x")
                }
                bytes.withUnsafeBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return }
                    for start in 0...count {
                        for end in start...count {
                            let found = splitter.nextDelimiterOrNewline(base, from: start, to: end)
                            if found != Self.byteByByte(base, from: start, to: end, delimiter: delimiter) {
                                differences.append("delimiter \(delimiter), \(bytes), \(start)..<\(end): \(found)")
                            }
                        }
                    }
                }
            }
        }
        XCTAssertEqual(differences.prefix(5), [])
    }

    func testRecordsSplitAsBefore() {
        let text = Array("id,lat,lon\r\n1,\"a,b\"\"c\"x,48.653089,1.805986\n2,,,\"multi\nline\"\n,,\n12345678901234567,2\n\n\"open".utf8)
        var fields: [InputCell] = []
        let splitter = DelimitedRecordSplitter(delimiter: UInt8(ascii: ","))
        var records: [[String]] = []
        text.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                let record = splitter.split(buffer.baseAddress!, from: index, to: buffer.count, into: &fields)
                records.append(fields.map { DelimitedRecordSplitter.text(of: $0, in: buffer.baseAddress!) })
                index = record.next
            }
        }
        XCTAssertEqual(
            records,
            [
                ["id", "lat", "lon"], ["1", "a,b\"cx", "48.653089", "1.805986"], ["2", "", "", "multi\nline"], ["", "", ""],
                ["12345678901234567", "2"], [""], ["open"],
            ])
    }

    /// The one-pass split of a record without quotes reads what `split` reads (fields, next record, lines, the
    /// content's end, whether a line feed ended it), and gives up at a quote with the fields as they were: random
    /// records dense in delimiters, CR, LF and quotes, from every offset, to every end.
    func testUnquotedSplitMatchesSplit() {
        var generator = SystemRandomNumberGenerator()
        var differences: [String] = []
        for delimiter in [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")] {
            let splitter = DelimitedRecordSplitter(delimiter: delimiter)
            let alphabet: [UInt8] = [delimiter, delimiter, UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "\""), UInt8(ascii: "7")]
            for round in 0..<400 {
                let count = Int.random(in: 0...40, using: &generator)
                let quoteFree = round % 2 == 0
                let bytes = (0..<count).map { _ -> UInt8 in
                    guard Int.random(in: 0..<3, using: &generator) == 0 else { return UInt8(ascii: "x") }
                    let byte = alphabet.randomElement(using: &generator)!
                    return quoteFree && byte == UInt8(ascii: "\"") ? UInt8(ascii: "y") : byte
                }
                var cells = GrowingBuffer<InputCell>(capacity: 1)
                defer { cells.deallocate() }
                bytes.withUnsafeBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return }
                    for start in 0..<count {
                        for end in (start + 1)...count {
                            var expected: [InputCell] = []
                            let record = splitter.split(base, from: start, to: end, into: &expected)
                            cells.removeAll()
                            cells.append(.missing)
                            guard let fast = splitter.splitUnquoted(base, from: start, to: end, appendingTo: &cells) else {
                                if cells.count != 1 || !bytes[start..<min(record.next, end)].contains(UInt8(ascii: "\"")) {
                                    differences.append("gave up without a quote: \(bytes), \(start)..<\(end)")
                                }
                                continue
                            }
                            let found = Array(cells.elements.dropFirst())
                            let same =
                                found.map(\.start) == expected.map(\.start) && found.map(\.end) == expected.map(\.end)
                                && found.allSatisfy { $0.kind == .delimitedPlain } && expected.allSatisfy { $0.kind == .delimitedPlain }
                                && fast.next == record.next && fast.lines == record.lines && fast.contentEnd == record.contentEnd
                                && fast.start == record.start && fast.endsWithNewline == record.endsWithNewline && !record.isUnterminated
                            if !same { differences.append("\(bytes), \(start)..<\(end)") }
                        }
                    }
                }
            }
        }
        XCTAssertEqual(differences.prefix(5), [])
    }
}
