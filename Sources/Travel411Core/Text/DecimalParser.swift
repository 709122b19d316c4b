#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Parses decimal numbers straight from input bytes, without making a `String`.
///
/// Grammar: optional spaces or tabs, optional sign, digits with an optional fraction (".5" and "5."
/// are accepted, as `Double(String)` accepts them), an optional exponent, optional spaces or tabs.
/// NaN, infinities and hexadecimal are rejected: none of them is a coordinate.
///
/// Fast path: up to 19 significant digits go into a UInt64. When that integer is at most 2^53 and
/// the decimal exponent is within ±22, both it and the power of ten are exact doubles, so one IEEE
/// multiplication or division gives the correctly rounded result. Everything else goes to strtod.
package enum DecimalParser {
    /// The value of `bytes[start..<end]`, or nil when it is not a decimal number.
    package static func parse(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Double? {
        if let value = parseWords(bytes, from: start, to: end) { return value }
        var index = start
        var limit = end
        while index < limit, isBlank(bytes[index]) { index &+= 1 }
        while limit > index, isBlank(bytes[limit &- 1]) { limit &-= 1 }
        guard index < limit else { return nil }
        let numberStart = index

        var isNegative = false
        if bytes[index] == UInt8(ascii: "-") {
            isNegative = true
            index &+= 1
        } else if bytes[index] == UInt8(ascii: "+") {
            index &+= 1
        }

        var digits = SignificantDigits()
        if !digits.readShort(bytes, at: &index, limit: limit) {
            digits.readInteger(bytes, at: &index, limit: limit)
            if index < limit, bytes[index] == UInt8(ascii: ".") {
                index &+= 1
                digits.readFraction(bytes, at: &index, limit: limit)
            }
        }
        guard digits.sawDigit else { return nil }

        if index < limit, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index &+= 1
            guard let explicitExponent = readExponent(bytes, at: &index, limit: limit) else { return nil }
            digits.exponent &+= explicitExponent
        }
        guard index == limit else { return nil }

        if let value = digits.exactValue { return isNegative ? -value : value }
        return parseWithStrtod(bytes + numberStart, count: limit - numberStart)
    }

    /// The digits of a number as they are read: up to 19 significant ones in an integer, and the power of ten
    /// that scales it.
    private struct SignificantDigits {
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var sawDigit = false
        /// Digits past the 19th were dropped: only strtod rounds such a number right.
        var lostDigits = false

        /// Reads the digits, decimal point and fraction of a number with at most 19 digits in all (every coordinate
        /// written with a few decimals), and returns true; false, having read nothing, for a longer one.
        ///
        /// No digit is dropped then, so the mantissa is simply every digit in turn (leading zeros add nothing to
        /// it) and the exponent minus the fraction's length: what `readInteger` and `readFraction` make of the
        /// same digits, without their per-digit tests for leading zeros and the 19-digit limit.
        @inline(__always)
        mutating func readShort(_ bytes: UnsafePointer<UInt8>, at start: inout Int, limit: Int) -> Bool {
            var index = start
            var value: UInt64 = 0
            while index < limit {
                let digit = bytes[index] &- 48
                guard digit < 10 else { break }
                value = value &* 10 &+ UInt64(digit)
                index &+= 1
            }
            var count = index &- start
            var fractionCount = 0
            if index < limit, bytes[index] == UInt8(ascii: ".") {
                index &+= 1
                let fractionStart = index
                while index < limit {
                    let digit = bytes[index] &- 48
                    guard digit < 10 else { break }
                    value = value &* 10 &+ UInt64(digit)
                    index &+= 1
                }
                fractionCount = index &- fractionStart
                count &+= fractionCount
            }
            guard count <= 19 else { return false }
            mantissa = value
            exponent = -fractionCount
            sawDigit = count > 0
            start = index
            return true
        }

        /// The digits before the decimal point.
        @inline(__always)
        mutating func readInteger(_ bytes: UnsafePointer<UInt8>, at index: inout Int, limit: Int) {
            while index < limit {
                let digit = bytes[index] &- 48
                guard digit < 10 else { break }
                sawDigit = true
                if mantissa == 0 && digit == 0 {
                    // A leading zero is not significant.
                } else if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significantDigits &+= 1
                } else {
                    exponent &+= 1
                    lostDigits = true
                }
                index &+= 1
            }
        }

        /// The digits after the decimal point.
        @inline(__always)
        mutating func readFraction(_ bytes: UnsafePointer<UInt8>, at index: inout Int, limit: Int) {
            while index < limit {
                let digit = bytes[index] &- 48
                guard digit < 10 else { break }
                sawDigit = true
                if mantissa == 0 && digit == 0 {
                    exponent &-= 1
                } else if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significantDigits &+= 1
                    exponent &-= 1
                } else {
                    lostDigits = true
                }
                index &+= 1
            }
        }

        /// The magnitude when one IEEE multiplication or division gives it correctly rounded (zero included);
        /// nil when strtod must.
        var exactValue: Double? {
            @inline(__always) get {
                if mantissa == 0 && !lostDigits { return 0.0 }
                guard !lostDigits, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
                var value = Double(mantissa)
                if exponent < 0 {
                    value /= exactPowersOfTen[-exponent]
                } else {
                    value *= exactPowersOfTen[exponent]
                }
                return value
            }
        }
    }

    /// The exponent's sign and digits after the `e`, or nil when it has no digit.
    @inline(__always)
    private static func readExponent(_ bytes: UnsafePointer<UInt8>, at index: inout Int, limit: Int) -> Int? {
        var isNegative = false
        if index < limit, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            isNegative = bytes[index] == UInt8(ascii: "-")
            index &+= 1
        }
        var exponent = 0
        var sawDigit = false
        while index < limit {
            let digit = bytes[index] &- 48
            guard digit < 10 else { break }
            sawDigit = true
            // Past a million the value is 0 or infinity anyway; stop growing to avoid overflow.
            if exponent < 1_000_000 { exponent = exponent &* 10 &+ Int(digit) }
            index &+= 1
        }
        guard sawDigit else { return nil }
        return isNegative ? -exponent : exponent
    }

    /// The value of a number written with a decimal comma, as spreadsheets in much of Europe write
    /// it: optional spaces or tabs, optional sign, digits, one comma, digits, optional spaces or
    /// tabs ("51,47", "-0,45"). Nil for anything else, such as "1,234,5", "1.234,5" or ",5".
    /// Only tried after `parse` fails, so kept out of line, away from the callers' hot loops.
    @inline(never)
    package static func parseDecimalComma(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Double? {
        var index = start
        var limit = end
        while index < limit, isBlank(bytes[index]) { index &+= 1 }
        while limit > index, isBlank(bytes[limit &- 1]) { limit &-= 1 }
        let numberStart = index
        if index < limit, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index &+= 1 }
        let integerStart = index
        while index < limit, bytes[index] &- 48 < 10 { index &+= 1 }
        guard index > integerStart, index < limit, bytes[index] == UInt8(ascii: ",") else { return nil }
        let comma = index
        index &+= 1
        let fractionStart = index
        while index < limit, bytes[index] &- 48 < 10 { index &+= 1 }
        guard index > fractionStart, index == limit else { return nil }
        // The same digits with a point: the point grammar (and its exact rounding) takes it from here.
        let count = limit &- numberStart
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { scratch -> Double? in
            guard let text = scratch.baseAddress else { return nil }
            text.update(from: bytes + numberStart, count: count)
            text[comma &- numberStart] = UInt8(ascii: ".")
            return parse(UnsafePointer(text), from: 0, to: count)
        }
    }

    @inline(__always)
    package static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// 10^0 … 10^22, each exactly representable as a Double.
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The slow path for long or extreme numbers; the grammar was already checked above.
    private static func parseWithStrtod(_ bytes: UnsafePointer<UInt8>, count: Int) -> Double? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { scratch -> Double? in
            guard let text = scratch.baseAddress else { return nil }
            bytes.withMemoryRebound(to: CChar.self, capacity: count) { source in
                text.update(from: source, count: count)
            }
            text[count] = 0
            var parsedEnd: UnsafeMutablePointer<CChar>?
            let value = strtod(text, &parsedEnd)
            guard let parsedEnd, parsedEnd - text == count else { return nil }
            return value
        }
    }
}
