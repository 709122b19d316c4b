import Travel411Core

/// The computed placemark fields written straight into bytes. The text equals
/// `PlacemarkField.text(in:)` (tests compare them) without building a String per row.
enum PlacemarkText {
    static let trueBytes: StaticString = "true"
    static let falseBytes: StaticString = "false"
    private static let compassPoints: [StaticString] = [
        "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
    ]

    /// The field's text, except that `.description` stops before the place name, which always
    /// ends it ("in …", "… of …").
    static func appendPrefix(_ field: PlacemarkField, metres: Double, bearing: Double, to output: GrowableByteArray) -> Bool {
        guard metres.isFinite, abs(metres) < 1e15, bearing.isFinite else { return false }
        switch field {
        case .distance:
            output.appendDecimal(Int(metres.rounded()))
        case .bearing:
            output.append(compassPoint(bearing))
        case .description:
            if metres < 100 {
                output.append("in ")
                return true
            }
            if metres < 1000 {
                output.appendDecimal(Int(metres.rounded()))
                output.append(" m ")
            } else if metres / 1000 < 100 {
                // (km * 10).rounded() / 10 prints as "<tenths / 10>.<tenths % 10>".
                let tenths = Int((metres / 1000 * 10).rounded())
                output.appendDecimal(tenths / 10)
                output.append(UInt8(ascii: "."))
                output.appendDecimal(tenths % 10)
                output.append(" km ")
            } else {
                output.appendDecimal(Int((metres / 1000).rounded()))
                output.append(" km ")
            }
            output.append(compassPoint(bearing))
            output.append(" of ")
        default:
            return false
        }
        return true
    }

    /// The same rounding as `CompassPoint(bearing:)`, without its per-call `allCases` array.
    static func compassPoint(_ bearing: Double) -> StaticString {
        // Same value as (b % 360 + 360) % 360 without fmod in the usual case: b % 360 is b for b in
        // [0, 360), and for x in [360, 720) x % 360 is x - 360, exactly (Sterbenz).
        let remainder = bearing >= 0 && bearing < 360 ? bearing : bearing.truncatingRemainder(dividingBy: 360)
        var normalized = remainder + 360
        if normalized >= 360 { normalized -= 360 }
        return compassPoints[Int((normalized / 22.5).rounded()) % 16]
    }
}
