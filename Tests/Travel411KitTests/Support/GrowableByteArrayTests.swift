import XCTest

@testable import Travel411Core

final class GrowableByteArrayTests: XCTestCase {
    /// Every length the short-copy paths take (bytes, overlapping 4- and 8-byte words) and a few past them, at
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
}
