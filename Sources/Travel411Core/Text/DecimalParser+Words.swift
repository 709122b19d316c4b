/// The shape nearly every coordinate has, read eight bytes at a time: about 105 instructions a number instead of
/// the byte-by-byte grammar's 175 (two numbers a row of a batch).
extension DecimalParser {
    /// The value of `[-]D.D`: an optional minus, 1 to 7 digits, a point and 1 to 8 digits, no blanks, at least eight
    /// bytes after the sign; nil for anything else, which `parse` then reads byte by byte. The same mantissa and
    /// exponent as `parse` makes of those digits, and the same division, so the same Double.
    @inline(__always)
    static func parseWords(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Double? {
        var index = start
        let isNegative = index < end && bytes[index] == UInt8(ascii: "-")
        if isNegative { index &+= 1 }
        guard end &- index >= 8 else { return nil }
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
        let integerCount = leadingDigits(word)
        guard integerCount > 0, integerCount < 8, bytes[index &+ integerCount] == UInt8(ascii: ".") else { return nil }
        guard let fraction = wholeFraction(bytes, from: index &+ integerCount &+ 1, to: end, readable: start) else { return nil }
        // The integer's digits moved to the word's top bytes, the bytes below them leading zeros.
        let integer = eightDigits((word & 0x0F0F_0F0F_0F0F_0F0F) << UInt64(8 &* (8 &- integerCount)))
        let mantissa = integer &* powersOfTen[fraction.count] &+ fraction.value
        guard mantissa <= 1 << 53 else { return nil }
        let value = Double(mantissa) / exactPowersOfTen[fraction.count]
        return isNegative ? -value : value
    }

    /// The value and number of the digits `bytes[start..<end]` when they are 1 to 8 digits and nothing else, read as
    /// one word: the eight bytes ending at `end`, none before `readable`. Nil otherwise.
    @inline(__always)
    static func wholeFraction(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, readable: Int) -> (
        value: UInt64, count: Int
    )? {
        let count = end &- start
        guard count > 0, count <= 8, end &- 8 >= readable else { return nil }
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes + (end &- 8)).loadUnaligned(as: UInt64.self))
        // The digits are the word's top `count` bytes.
        let kept = UInt64.max << UInt64(8 &* (8 &- count))
        guard notDigits(word) & kept == 0 else { return nil }
        return (eightDigits(word & 0x0F0F_0F0F_0F0F_0F0F & kept), count)
    }

    /// A word's bytes that are not ASCII digits, as non-zero bytes: a digit's high nibble is 3 and its low nibble
    /// at most 9, which adding 6 leaves below 16, so no carry crosses into the next byte.
    @inline(__always)
    static func notDigits(_ word: UInt64) -> UInt64 {
        let highs = (word & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030
        return highs | (((word & 0x0F0F_0F0F_0F0F_0F0F) &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0)
    }

    /// How many of the word's first bytes (the lowest) are digits, 0 to 8.
    @inline(__always)
    static func leadingDigits(_ word: UInt64) -> Int {
        let flags = notDigits(word)
        // Each non-zero byte's top bit, and no other: adding 0x7F to its low seven bits carries into the top bit
        // of that byte only.
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let marks = (((flags & lows) &+ lows) | flags) & 0x8080_8080_8080_8080
        return marks.trailingZeroBitCount >> 3
    }

    /// The number eight digit values make, one a byte, the first (the most significant) lowest: pairs, then pairs of
    /// pairs weighted (simdjson's parse_eight_digits_unrolled; Lemire, "Number parsing at a gigabyte per second",
    /// Software: Practice and Experience, 2021).
    @inline(__always)
    static func eightDigits(_ digits: UInt64) -> UInt64 {
        let pairs = digits &* 10 &+ (digits >> 8)
        let outer = (pairs & 0x0000_00FF_0000_00FF) &* 0x000F_4240_0000_0064
        let inner = ((pairs >> 16) & 0x0000_00FF_0000_00FF) &* 0x0000_2710_0000_0001
        return (outer &+ inner) >> 32
    }

    /// 10^0 … 10^8.
    static let powersOfTen: [UInt64] = [1, 10, 100, 1000, 10000, 100_000, 1_000_000, 10_000_000, 100_000_000]
}
