import Foundation

/// Coordinates as Nominatim prints them: seven decimals, as Python's `%.7f`.
package enum DecimalText {
    /// `value` rounded to 1e-7 with exactly seven decimals, without Foundation's formatter (a server answer
    /// prints six of them).
    package static func sevenDecimals(_ value: Double) -> String {
        var bytes: [UInt8] = []
        appendSevenDecimals(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `String(format: "%.7f", value)` as bytes (as Nominatim's Python prints coordinates), without Foundation's
    /// formatter for all but the values a rounded product cannot decide: within its error of a half.
    package static func appendSevenDecimals(_ value: Double, to bytes: inout [UInt8]) {
        guard value.isFinite, abs(value) < 1e11 else { return bytes.append(contentsOf: JSONText.number(value).utf8) }
        let product = value * 1e7
        // The product is off the exact one by at most half an ulp (|product| × 2^-53); beyond twice that from a
        // half, rounding it rounds the exact value the same way. Below 1e8 its integer part is exact too.
        let fraction = abs(product - product.rounded(.towardZero))
        guard abs(value) < 1e8, abs(fraction - 0.5) > abs(product) * 0x1p-52 else {
            return bytes.append(contentsOf: String(format: "%.7f", value).utf8)
        }
        let scaled = Int64(product.rounded())
        if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
        JSONText.appendDecimal(scaled.magnitude / 10_000_000, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        JSONText.appendDecimal(scaled.magnitude % 10_000_000, width: 7, to: &bytes)
    }
}
