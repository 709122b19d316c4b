import Foundation
import Travel411Core
import Travel411Store

/// The street nearest an object with an outline (a building, a mall, a station, a pier), measured as Nominatim 5.3
/// measures it: from the object's box (`find_parent_for_poi` is given `ST_Envelope` of the geometry, and both
/// `getNearestRoadPlaceId` and `getNearestNamedRoadPlaceId` order by `ST_Distance` to it,
/// `lib-sql/functions/placex_triggers.sql` and `partition-functions.sql`), so that every street crossing the box
/// is at 0. Of those equally near, a street of rank 26 comes before a minor one of rank 27 (a footway, a service
/// road): the rank-26 streets are indexed first (`index_by_rank`), so they come first in `location_road`, the
/// table the search scans, and the first of equal distances is kept. Then the street nearer the object's centre,
/// then the lower number. A mall between a footway and an avenue that both cross its box (Singapore's Marina
/// Square) has the avenue; a museum 0.00006° from one street's box-side and 0.00020° from its centre has that
/// street, not another whose line passes nearer its centre.
enum ObjectBoxStreets {
    /// An object's box and centre.
    struct Object {
        var box: BoundingBox
        var centre: Coordinate

        /// Half the box's diagonal: no part of the box is farther from the centre.
        var halfDiagonal: Double { hypot(box.maxX - box.minX, box.maxY - box.minY) / 2 }
    }

    /// A street as measured from an object, ordered as the paragraph above says.
    struct Measure: Comparable {
        var boxSquared: Double
        var isMinor: Bool
        var centreSquared: Double
        var street: UInt32

        static func < (a: Measure, b: Measure) -> Bool {
            if a.boxSquared != b.boxSquared { return a.boxSquared < b.boxSquared }
            if a.isMinor != b.isMinor { return !a.isMinor }
            if a.centreSquared != b.centreSquared { return a.centreSquared < b.centreSquared }
            return a.street < b.street
        }
    }

    /// The nearest of the streets `accept` takes whose line comes within `reach` of the object's box.
    static func nearest(
        to object: Object, reach: Double, streets: StreetTiles, isMinor: (UInt32) -> Bool, accept: @escaping (UInt32) -> Bool
    ) -> UInt32? {
        // A street's distance from the box is at most its distance from the centre and at least that less half the
        // diagonal: no street farther from the centre than the nearest one's centre distance plus half the
        // diagonal can be nearer the box.
        let nearestFromCentre = streets.nearestInDegrees(to: object.centre, radiusDegrees: reach + object.halfDiagonal, accept: accept)
        guard let nearestFromCentre else { return nil }
        var candidates: Set<UInt32> = []
        // Refusing every line makes the search ask about each one within the radius.
        _ = streets.nearestInDegrees(
            to: object.centre, radiusDegrees: nearestFromCentre.degrees + object.halfDiagonal,
            accept: { id in
                if accept(id) { candidates.insert(id) }
                return false
            })
        var best: Measure?
        for street in candidates {
            guard let measure = measure(street, from: object, reach: reach, streets: streets, isMinor: isMinor) else { continue }
            if best.map({ measure < $0 }) ?? true { best = measure }
        }
        return best?.street
    }

    /// `street` as measured from the object, when its line comes within `reach` of the box.
    static func measure(
        _ street: UInt32, from object: Object, reach: Double, streets: StreetTiles, isMinor: (UInt32) -> Bool
    ) -> Measure? {
        let area = object.box.widened(by: reach)
        guard let segments = streets.segments(ofLine: street, in: area, maxCells: 4096, maxSegments: 1 << 16) else {
            // Too long to gather: measured from the centre alone.
            guard let squared = streets.squaredDegrees(from: object.centre, toLine: street, within: reach, clip: nil) else { return nil }
            return Measure(boxSquared: squared, isMinor: isMinor(street), centreSquared: squared, street: street)
        }
        var boxSquared = Double.infinity, centreSquared = Double.infinity
        let c = segments.coordinates
        for i in stride(from: 0, to: c.count - 3, by: 4) {
            boxSquared = min(boxSquared, squaredDegrees(c[i], c[i + 1], c[i + 2], c[i + 3], to: object.box))
            centreSquared = min(
                centreSquared,
                squaredDegrees(
                    c[i], c[i + 1], c[i + 2], c[i + 3],
                    to: BoundingBox(
                        minX: object.centre.longitude, minY: object.centre.latitude, maxX: object.centre.longitude,
                        maxY: object.centre.latitude)))
        }
        guard boxSquared <= reach * reach else { return nil }
        return Measure(boxSquared: boxSquared, isMinor: isMinor(street), centreSquared: centreSquared, street: street)
    }

    /// The square of the distance in degrees from the segment a-b to the box: 0 where it crosses or lies in it, else
    /// the least of its ends' distances to the box and the box's corners' distances to it.
    static func squaredDegrees(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, to box: BoundingBox) -> Double {
        if crosses(ax, ay, bx, by, box) { return 0 }
        func toBox(_ x: Double, _ y: Double) -> Double {
            let dx = max(box.minX - x, 0, x - box.maxX), dy = max(box.minY - y, 0, y - box.maxY)
            return dx * dx + dy * dy
        }
        func toSegment(_ x: Double, _ y: Double) -> Double {
            let ex = bx - ax, ey = by - ay
            let lengthSquared = ex * ex + ey * ey
            let t = lengthSquared > 0 ? min(1, max(0, ((x - ax) * ex + (y - ay) * ey) / lengthSquared)) : 0
            let dx = ax + t * ex - x, dy = ay + t * ey - y
            return dx * dx + dy * dy
        }
        return min(
            toBox(ax, ay), toBox(bx, by), toSegment(box.minX, box.minY), toSegment(box.minX, box.maxY), toSegment(box.maxX, box.minY),
            toSegment(box.maxX, box.maxY))
    }

    /// Whether the segment a-b has a point in the box (Liang-Barsky clipping).
    private static func crosses(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ box: BoundingBox) -> Bool {
        var low = 0.0, high = 1.0
        let dx = bx - ax, dy = by - ay
        /// Narrows the segment's part inside one side of the box; false when none is left.
        func clip(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let r = q / p
            if p < 0 { low = max(low, r) } else { high = min(high, r) }
            return low <= high
        }
        return clip(-dx, ax - box.minX) && clip(dx, box.maxX - ax) && clip(-dy, ay - box.minY) && clip(dy, box.maxY - ay)
    }
}
