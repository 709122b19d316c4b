import Foundation

/// Spherical-Earth formulas on the IUGG mean radius; accurate to about 0.5 % against the ellipsoid,
/// which is well inside what a place name needs.
public enum GreatCircle {
    public static let earthRadiusMetres = 6_371_008.8

    /// Haversine distance in metres; stable for tiny and antipodal separations alike.
    public static func distance(from a: Coordinate, to b: Coordinate) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let Δφ = φ2 - φ1
        let Δλ = (b.longitude - a.longitude) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * earthRadiusMetres * asin(min(1, sqrt(h)))
    }

    /// Initial bearing in degrees clockwise from true north, in [0, 360).
    public static func initialBearing(from a: Coordinate, to b: Coordinate) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let Δλ = (b.longitude - a.longitude) * .pi / 180
        let y = sin(Δλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
        let θ = atan2(y, x) * 180 / .pi
        return remainderOf360(θ + 360)
    }

    /// `distance(from:to:)` and `initialBearing(from:to:)` at once, bit for bit the same numbers: the same
    /// expressions in the same order, each sine and cosine they share computed once (seven calls of
    /// trigonometry instead of eleven; a batch asks both for every point).
    @inline(__always)
    public static func distanceAndInitialBearing(from a: Coordinate, to b: Coordinate) -> (metres: Double, degrees: Double) {
        let (sinφ2, cosφ2) = sineAndCosine(b.latitude * .pi / 180)
        return distanceAndInitialBearing(from: a, to: b, sinφ2: sinφ2, cosφ2: cosφ2)
    }

    /// `distanceAndInitialBearing(from:to:)` given the sine and cosine of `b`'s latitude in radians
    /// (`b.latitude * .pi / 180`, as a nearest-place search's query has them): the same numbers, two calls fewer.
    /// Inlinable: the batch asks it for every point from the geocoder's module.
    @inlinable @inline(__always)
    public static func distanceAndInitialBearing(from a: Coordinate, to b: Coordinate, sinφ2: Double, cosφ2: Double) -> (
        metres: Double, degrees: Double
    ) {
        let (sinφ1, cosφ1) = latitudeSineAndCosine(a.latitude)
        return distanceAndInitialBearing(from: a, to: b, sinφ1: sinφ1, cosφ1: cosφ1, sinφ2: sinφ2, cosφ2: cosφ2)
    }

    /// `distanceAndInitialBearing(from:to:sinφ2:cosφ2:)` given `a`'s as well (`latitudeSineAndCosine(a.latitude)`, as a
    /// caller keeping them per place has them): the same numbers, two calls fewer again.
    @inlinable @inline(__always)
    public static func distanceAndInitialBearing(
        from a: Coordinate, to b: Coordinate, sinφ1: Double, cosφ1: Double, sinφ2: Double, cosφ2: Double
    ) -> (metres: Double, degrees: Double) {
        let (metres, east, north) = distanceAndBearingComponents(from: a, to: b, sinφ1: sinφ1, cosφ1: cosφ1, sinφ2: sinφ2, cosφ2: cosφ2)
        return (metres, bearing(east: east, north: north))
    }

    /// `distanceAndInitialBearing(from:to:sinφ1:cosφ1:sinφ2:cosφ2:)` with the bearing as the two numbers its arctangent
    /// takes (`bearing(east:north:)` gives its degrees): a caller printing only its compass point mostly needs no
    /// arctangent (`PlacemarkText.compassText(east:north:)`).
    @inlinable @inline(__always)
    public static func distanceAndBearingComponents(
        from a: Coordinate, to b: Coordinate, sinφ1: Double, cosφ1: Double, sinφ2: Double, cosφ2: Double
    ) -> (metres: Double, east: Double, north: Double) {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let Δφ = φ2 - φ1
        let Δλ = (b.longitude - a.longitude) * .pi / 180
        let sinHalfΔφ = sin(Δφ / 2), sinHalfΔλ = sin(Δλ / 2)
        let h = sinHalfΔφ * sinHalfΔφ + cosφ1 * cosφ2 * sinHalfΔλ * sinHalfΔλ
        let metres = 2 * earthRadiusMetres * asin(min(1, sqrt(h)))
        let (sinΔλ, cosΔλ) = sineAndCosine(Δλ)
        let y = sinΔλ * cosφ2
        let x = cosφ1 * sinφ2 - sinφ1 * cosφ2 * cosΔλ
        return (metres, y, x)
    }

    /// The initial bearing in degrees, in [0, 360), of the direction whose east and north parts are given, as
    /// `distanceAndInitialBearing` computes it.
    @inlinable @inline(__always)
    public static func bearing(east y: Double, north x: Double) -> Double {
        let θ = atan2(y, x) * 180 / .pi
        return remainderOf360(θ + 360)
    }

    /// The sine and cosine of a latitude in degrees, in radians as `distanceAndInitialBearing` takes them.
    @inlinable @inline(__always)
    public static func latitudeSineAndCosine(_ latitude: Double) -> (sin: Double, cos: Double) {
        sineAndCosine(latitude * .pi / 180)
    }

    /// The point reached by travelling `distance` metres from `start` on initial bearing `bearing`.
    public static func destination(from start: Coordinate, distance: Double, bearing: Double) -> Coordinate {
        Origin(start).destination(Step(distance: distance), Heading(bearing))
    }

    /// A start point's sines and cosines, for many destinations from one point (the coastal probes
    /// ask forty): with `Step` and `Heading` computed once, each destination costs three calls of
    /// trigonometry instead of nine, and gives bit for bit what `destination(from:distance:bearing:)` gives.
    public struct Origin {
        @usableFromInline let λ1: Double, sinφ1: Double, cosφ1: Double

        @inlinable public init(_ start: Coordinate) {
            let φ1 = start.latitude * .pi / 180
            λ1 = start.longitude * .pi / 180
            (sinφ1, cosφ1) = sineAndCosine(φ1)
        }

        @inlinable public func destination(_ step: Step, _ heading: Heading) -> Coordinate {
            let φ2 = asin(sinφ1 * step.cosδ + cosφ1 * step.sinδ * heading.cosθ)
            let λ2 = λ1 + atan2(heading.sinθ * step.sinδ * cosφ1, step.cosδ - sinφ1 * sin(φ2))
            return Coordinate(latitude: φ2 * 180 / .pi, longitude: normalizedLongitude(λ2 * 180 / .pi))
        }
    }

    /// A distance travelled, as the sine and cosine of its angle at the Earth's centre.
    public struct Step {
        @usableFromInline package let sinδ: Double, cosδ: Double
        @inlinable public init(distance: Double) {
            let δ = distance / earthRadiusMetres
            (sinδ, cosδ) = sineAndCosine(δ)
        }
        package init(sinδ: Double, cosδ: Double) {
            self.sinδ = sinδ
            self.cosδ = cosδ
        }
    }

    /// An initial bearing in degrees, as its sine and cosine.
    public struct Heading {
        @usableFromInline package let sinθ: Double, cosθ: Double
        @inlinable public init(_ bearing: Double) {
            let θ = bearing * .pi / 180
            (sinθ, cosθ) = sineAndCosine(θ)
        }
        package init(sinθ: Double, cosθ: Double) {
            self.sinθ = sinθ
            self.cosθ = cosθ
        }
    }

    /// Wraps any longitude into [-180, 180).
    @inlinable public static func normalizedLongitude(_ longitude: Double) -> Double {
        var λ = remainderOf360(longitude + 180)
        if λ < 0 { λ += 360 }
        return λ - 180
    }

    /// `x.truncatingRemainder(dividingBy: 360)`, the same number, without a call of libm's fmod where these formulas
    /// put their bearings and longitudes (a bearing from atan2 plus 360 is in [180, 540], a destination's longitude
    /// plus 180 in [-180, 540]; a batch made one or two calls a point): below 360 in magnitude the remainder is x,
    /// from 360 to 720 it is x − 360, exactly (Sterbenz's lemma: y / 2 ≤ x ≤ 2y makes x − y exact). Elsewhere, and
    /// for NaN, fmod itself; a negative x is left to it from −360 on, where it keeps the sign of a zero result.
    @inlinable @inline(__always) public static func remainderOf360(_ x: Double) -> Double {
        if x >= 0, x < 720 { return x < 360 ? x : x - 360 }
        if x < 0, x > -360 { return x }
        return x.truncatingRemainder(dividingBy: 360)
    }
}

/// The 16 points of the compass, as a traveller reads them ("NW", "SSE").
public enum CompassPoint: String, CaseIterable, Sendable, Codable {
    case n = "N", nne = "NNE", ne = "NE", ene = "ENE", e = "E", ese = "ESE", se = "SE", sse = "SSE"
    case s = "S", ssw = "SSW", sw = "SW", wsw = "WSW", w = "W", wnw = "WNW", nw = "NW", nnw = "NNW"

    public init(bearing: Double) {
        let normalized = (bearing.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        let index = Int((normalized / 22.5).rounded()) % 16
        self = CompassPoint.allCases[index]
    }
}
