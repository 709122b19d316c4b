import Foundation
import Travel411Core

/// Whether one point is the nearest for every query in a 1° tile (`TileNearestHints`), so that a search
/// from anywhere in the tile may answer it without walking the tree. The proof works on the unit sphere,
/// where the tree's chord distances live:
///
/// - the tile (widened by a millionth of a degree, so that a query rounded into it from its edge is
///   covered too) lies in a cap of angular radius ρ around its centre c: by the haversine formula, each
///   term at its largest over the tile;
/// - for a query x of the cap, |x − Q|² − |x − P|² = |Q|² − |P|² + 2 x · (P − Q), and the least x · n over
///   the cap, with n = P − Q at angle α to c, is |n| cos(α + ρ) = (c · n) cos ρ − |c × n| sin ρ (no arccosine,
///   so no loss of precision where α is small; where α + ρ passes π the value is negative and the proof
///   fails, as it must);
/// - P is nearer than Q throughout the cap when twice that least value exceeds ||Q|² − |P|²| (the stored
///   vectors are unit only to rounding) by `margin`: the computed squared chords, each exact to a few units
///   in the 15th place, then order P first for every query, never equal, so no tie rule is ever needed;
/// - a point Q farther from c than d₀ + 2 chord(ρ) (d₀: P's distance from c) is farther than P from every
///   query of the cap (triangle inequality), so only the points within that reach need the test.
///
/// An unprovable tile (several points share it) keeps the search; the answer is the same either way.
package enum NearestTileProof {
    /// A difference of squared chords far above the computed ones' rounding (a few units in their 15th
    /// decimal place) and far below any gap between two places that matters (under a millimetre beyond 50 km).
    static let margin = 1e-12
    /// More points within reach than this: the tile is not proven (a crowded coast).
    package static let reachLimit = 32
    /// More points within reach than this: they are not listed either (`NearestTileCandidates`), and the
    /// search for them stops early, so that trying costs little.
    package static let candidateLimit = 128

    package typealias Vector = (x: Double, y: Double, z: Double)

    /// The cap around a 1° tile, its radius's cosine and sine computed once for all the points tested.
    package struct Cap {
        package let centre: Vector
        /// The angular radius, in radians.
        package let radius: Double
        let cosine: Double, sine: Double

        /// The cap of the 1° tile of `row` (0 from 90° S) and `column` (0 from 180° W).
        package init(row: Int, column: Int) {
            centre = PointIndex.unitVector(latitude: Double(row) - 89.5, longitude: Double(column) - 179.5)
            radius = NearestTileProof.capRadius(row: row, column: column)
            (cosine, sine) = (cos(radius), sin(radius))
        }

        /// Whether `p` is nearer than `q` to every query of the cap, by `margin`.
        @inline(__always)
        package func isNearer(_ p: Vector, than q: Vector) -> Bool {
            let c = centre
            let n = (x: p.x - q.x, y: p.y - q.y, z: p.z - q.z)
            let along = c.x * n.x + c.y * n.y + c.z * n.z
            let across = (x: c.y * n.z - c.z * n.y, y: c.z * n.x - c.x * n.z, z: c.x * n.y - c.y * n.x)
            let acrossLength = (across.x * across.x + across.y * across.y + across.z * across.z).squareRoot()
            let least = along * cosine - acrossLength * sine
            let lengths = abs((q.x * q.x + q.y * q.y + q.z * q.z) - (p.x * p.x + p.y * p.y + p.z * p.z))
            return 2 * least > lengths + NearestTileProof.margin
        }

        /// The chord reach within which every point that could be nearer than P somewhere in the cap lies:
        /// d₀ + 2 chord(ρ), a hair more for rounding.
        package func reach(nearestChord d0: Double) -> Double {
            (d0 + 4 * sin(radius / 2)) * (1 + 1e-9) + 1e-9
        }
    }

    /// The angular radius of a cap around the tile's centre holding every point of the 1° tile of `row`
    /// (0 from 90° S) and `column` (0 from 180° W), its edges widened by a millionth of a degree.
    static func capRadius(row: Int, column: Int) -> Double {
        let widen = 1e-6
        let south = Double(row) - 90 - widen, north = Double(row) - 89 + widen
        let centre = Double(row) - 89.5
        let radians = Double.pi / 180
        let widestCosine = south <= 0 && north >= 0 ? 1.0 : max(cos(south * radians), cos(north * radians))
        let halfSide = (0.5 + widen) * radians
        let h = haversine(halfSide) + cos(centre * radians) * widestCosine * haversine(halfSide)
        // A billionth of a radian more: the arcsine's and the sines' rounding, and the queries' own.
        return 2 * asin(min(1, h.squareRoot())) * (1 + 1e-9) + 1e-9
    }

    /// Whether a query lies in the 1° tile `TileNearestHints.tile(of:)` gives it: not so beyond the world's
    /// edges (and for NaN), where the tile is a clamped one, beyond its cap.
    @inline(__always)
    package static func isInWorld(_ coordinate: Coordinate) -> Bool {
        abs(coordinate.latitude) <= 90 && abs(coordinate.longitude) <= 180
    }

    @inline(__always) private static func haversine(_ angle: Double) -> Double {
        let s = sin(angle / 2)
        return s * s
    }
}
