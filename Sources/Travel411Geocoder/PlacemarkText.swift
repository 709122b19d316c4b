import Travel411Core

/// The computed placemark fields written straight into bytes. The text equals
/// `PlacemarkField.text(in:)` (tests compare them) without building a String per row.
enum PlacemarkText {
    static let trueBytes: StaticString = "true"
    static let falseBytes: StaticString = "false"
    /// The sixteen compass points (`CompassPoint`), three bytes each, padded with spaces: one constant read in
    /// place, not a global array reached through its lazy initialiser per field. One more space at the end, so that
    /// four bytes may be read at every point (`appendCompassPoint` copies them as one word).
    private static let compassPoints: StaticString = "N  NNENE ENEE  ESESE SSES  SSWSW WSWW  WNWNW NNW "

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

    /// `appendPrefix` given the bearing as the two numbers its arctangent takes (`GreatCircle.bearing(east:north:)`):
    /// the compass point mostly decided from them (`compassText(east:north:)`), the degrees only where they cannot
    /// tell it. A bearing decided so is finite, as the prefix asks, and its degrees are not read again.
    @inline(__always)
    static func appendPrefix(
        _ field: PlacemarkField, of bearingParts: (east: Double, north: Double), metres: Double, compass: inout CompassText?,
        to output: GrowableByteArray
    ) -> Bool {
        let (east, north) = bearingParts
        if compass == nil { compass = compassText(east: east, north: north) }
        let bearing = compass == nil ? GreatCircle.bearing(east: east, north: north) : 0
        return appendPrefix(field, metres: metres, bearing: bearing, compass: &compass, to: output)
    }

    @inline(__always)
    private static func appendCompassPoint(_ bearing: Double, memo: inout CompassText?, to output: GrowableByteArray) {
        let text = memo ?? compassText(bearing)
        memo = text
        // Four bytes stored at once, the count moved by the point's one to three: no loop over its bytes.
        output.reserve(4)
        let word = UnsafeRawPointer(text.start).loadUnaligned(as: UInt32.self)
        UnsafeMutableRawPointer(output.base + output.count).storeBytes(of: word, as: UInt32.self)
        output.count &+= text.count
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

    /// The compass point of the bearing `GreatCircle.bearing(east:north:)` gives for these two numbers, without its
    /// arctangent: the direction folded into a quadrant (its angle β from the north-south axis, tan β = |east| / |north|)
    /// is compared with the tangents of the points' boundaries there (11.25°, 33.75°, 56.25°, 78.75°), then unfolded
    /// by the signs. nil where the direction lies within `compassMargin` of a boundary, or a number is zero (signed
    /// zeros), NaN, infinite or so small that a product loses digits: there `compassText(_:)` of the degrees decides.
    ///
    /// Elsewhere it is the point the degrees give. Each computed bound `tan θ · |north| · (1 ± margin)` is within four
    /// units in the 16th place of the exact one, so a number beyond it puts β at least `margin · sin θ cos θ` ≥ 1.8e-10
    /// radians (1e-8°) from the boundary; the degrees' own arithmetic (atan2 within an ulp or two, then five roundings
    /// of numbers below 720: under 1e-12° in all) cannot carry a direction that far across it.
    static func compassText(east: Double, north: Double) -> CompassText? {
        let a = abs(north), b = abs(east)
        guard b > 0, b.isFinite, a.isFinite, a == 0 || a >= 0x1p-1000 else { return nil }
        // How many boundaries β lies beyond: 0...4; nil when near one.
        let tangents = compassTangents
        var fold = 0
        while fold < 4 {
            let bound = (fold == 0 ? tangents.0 : fold == 1 ? tangents.1 : fold == 2 ? tangents.2 : tangents.3) * a
            if b < bound * (1 - compassMargin) { break }
            guard b > bound * (1 + compassMargin) else { return nil }
            fold += 1
        }
        // N and E of the quadrant's points: 0...4 clockwise from north; from the south, 8 back or on.
        let index =
            north.sign == .minus ? (east.sign == .minus ? 8 + fold : 8 - fold) : (east.sign == .minus ? (16 - fold) & 15 : fold)
        let start = compassPoints.utf8Start + index &* 3
        let length = start[2] != UInt8(ascii: " ") ? 3 : start[1] != UInt8(ascii: " ") ? 2 : 1
        return (start, length)
    }

    /// tan 11.25°, tan 33.75°, tan 56.25° and tan 78.75°.
    private static let compassTangents = (0.198912367379658, 0.6681786379192989, 1.496605762665489, 5.027339492125846)

    /// How near a boundary, relatively in tan β, `compassText(east:north:)` leaves the compass point to the degrees.
    private static let compassMargin = 0x1p-30

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
