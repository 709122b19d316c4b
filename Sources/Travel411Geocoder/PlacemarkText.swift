import Travel411Core

/// The computed placemark fields written straight into bytes. The text equals
/// `PlacemarkField.text(in:)` (tests compare them) without building a String per row.
enum PlacemarkText {
    static let trueBytes: StaticString = "true"
    static let falseBytes: StaticString = "false"
    /// The sixteen compass points (`CompassPoint`), three bytes each, padded with spaces: one constant read in
    /// place, not a global array reached through its lazy initialiser per field.
    private static let compassPoints: StaticString = "N  NNENE ENEE  ESESE SSES  SSWSW WSWW  WNWNW NNW"

    /// The field's text, except that `.description` stops before the place name, which always
    /// ends it ("in …", "… of …").
    static func appendPrefix(_ field: PlacemarkField, metres: Double, bearing: Double, to output: GrowableByteArray) -> Bool {
        var compass: CompassText? = nil
        return appendPrefix(field, metres: metres, bearing: bearing, compass: &compass, to: output)
    }

    /// A compass point's bytes in `compassPoints`.
    typealias CompassText = (start: UnsafePointer<UInt8>, count: Int)

    /// `appendPrefix`, with the bearing's compass point kept in `compass` once found (nil: not yet): a row printing
    /// both the bearing and the description finds it once.
    @inline(__always)
    static func appendPrefix(
        _ field: PlacemarkField, metres: Double, bearing: Double, compass: inout CompassText?, to output: GrowableByteArray
    ) -> Bool {
        guard metres.isFinite, abs(metres) < 1e15, bearing.isFinite else { return false }
        switch field {
        case .distance:
            output.appendDecimal(roundedToInt(metres))
        case .bearing:
            appendCompassPoint(bearing, memo: &compass, to: output)
        case .description:
            if metres < 100 {
                output.append("in ")
                return true
            }
            if metres < 1000 {
                output.appendDecimal(roundedToInt(metres))
                output.append(" m ")
            } else if metres / 1000 < 100 {
                // (km * 10).rounded() / 10 prints as "<tenths / 10>.<tenths % 10>".
                let tenths = roundedToInt(metres / 1000 * 10)
                output.appendDecimal(tenths / 10)
                output.append(UInt8(ascii: "."))
                output.appendDecimal(tenths % 10)
                output.append(" km ")
            } else {
                output.appendDecimal(roundedToInt(metres / 1000))
                output.append(" km ")
            }
            appendCompassPoint(bearing, memo: &compass, to: output)
            output.append(" of ")
        default:
            return false
        }
        return true
    }

    @inline(__always)
    private static func appendCompassPoint(_ bearing: Double, memo: inout CompassText?, to output: GrowableByteArray) {
        let text = memo ?? compassText(bearing)
        memo = text
        output.append(text.start, count: text.count)
    }

    /// The bearing's compass point, as its bytes in `compassPoints`: the same rounding as `CompassPoint(bearing:)`,
    /// without its per-call `allCases` array.
    static func compassText(_ bearing: Double) -> CompassText {
        // Same value as (b % 360 + 360) % 360 without fmod in the usual case: b % 360 is b for |b| < 360
        // (a bearing from atan2 lies in (-180, 180]), and for x in [360, 720) x % 360 is x - 360, exactly (Sterbenz).
        var remainder = bearing
        if !(abs(bearing) < 360) { remainder = remainderOf360(bearing) }
        var normalized = remainder + 360
        if normalized >= 360 { normalized -= 360 }
        let index = roundedToInt(normalized / 22.5) & 15
        let start = compassPoints.utf8Start + index &* 3
        let length = start[2] != UInt8(ascii: " ") ? 3 : start[1] != UInt8(ascii: " ") ? 2 : 1
        return (start, length)
    }

    /// fmod, out of line: written inline, the optimiser computed it for every bearing and then chose.
    @inline(never)
    private static func remainderOf360(_ bearing: Double) -> Double { bearing.truncatingRemainder(dividingBy: 360) }

    /// `Int(x.rounded())` (half away from zero) for |x| < 2^52, without libm's round: x - trunc(x), the
    /// fraction, is exact there, so comparing it with ±0.5 decides as round does.
    @inline(__always)
    static func roundedToInt(_ x: Double) -> Int {
        let whole = Int(x)
        let fraction = x - Double(whole)
        if fraction >= 0.5 { return whole &+ 1 }
        if fraction <= -0.5 { return whole &- 1 }
        return whole
    }
}
