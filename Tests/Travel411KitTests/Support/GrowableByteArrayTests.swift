import XCTest

@testable import Travel411Core

final class GrowableByteArrayTests: XCTestCase {
    /// Every length the short-copy paths take (bytes, overlapping 4-, 8- and 16-byte words) and a few past them, at
    /// every offset in the buffer a word could straddle.
    func testAppendCopiesEveryLengthExactly() {
        let source = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for offset in 0..<9 {
            for length in 0...40 {
                let buffer = GrowableByteArray(capacity: 1)
                for _ in 0..<offset { buffer.append(UInt8(ascii: "x")) }
                source.withUnsafeBufferPointer { buffer.append(UnsafeBufferPointer(rebasing: $0[3..<3 + length])) }
                buffer.append(UInt8(ascii: "!"))
                let expected = [UInt8](repeating: UInt8(ascii: "x"), count: offset) + source[3..<3 + length] + [UInt8(ascii: "!")]
                XCTAssertEqual(Array(buffer.bytes), expected, "offset \(offset), length \(length)")
            }
        }
    }

    /// Two digits a step writes what `String(value)` writes: every value up to 100,000, the powers of ten and
    /// their neighbours, both signs, the extremes, and after text already in the buffer.
    func testAppendDecimalWritesWhatStringWrites() {
        var values = Array(0...100_000)
        var power = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1]
        }
        values += [Int.max, Int.min, Int.min + 1]
        for value in values + values.filter({ $0 != Int.min }).map({ -$0 }) {
            let buffer = GrowableByteArray(capacity: 1)
            buffer.append(UInt8(ascii: "x"))
            buffer.appendDecimal(value)
            XCTAssertEqual(String(decoding: buffer.bytes, as: UTF8.self), "x\(value)")
        }
    }
}
