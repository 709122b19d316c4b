import Travel411Core

/// A closed polygon ring with what assembly needs to know about it.
struct ClassifiedRing {
    var points: Ring
    /// Positive when counter-clockwise (a hole in shapefile terms), negative when clockwise (an outer ring).
    let signedArea: Double
    let box: BoundingBox

    /// Nil for rings that bound nothing: fewer than 4 points once closed, or no area.
    init?(_ points: [Point2D]) {
        var points = points
        if let first = points.first, points.last != first { points.append(first) }  // close it, as GDAL does
        guard points.count >= 4 else { return nil }
        let area = Self.signedArea(points)
        guard area != 0, area.isFinite else { return nil }
        self.points = points
        signedArea = area
        var box = BoundingBox.empty
        for point in points { box.extend(x: point.x, y: point.y) }
        self.box = box
    }

    var isClockwise: Bool { signedArea < 0 }

    /// The shoelace formula, relative to the first vertex to keep precision for rings far from the origin.
    private static func signedArea(_ points: [Point2D]) -> Double {
        let origin = points[0]
        var twiceArea = 0.0
        for index in 0..<(points.count - 1) {
            let a = points[index], b = points[index + 1]
            twiceArea += (a.x - origin.x) * (b.y - origin.y) - (b.x - origin.x) * (a.y - origin.y)
        }
        return twiceArea / 2
    }

    /// Whether `other` lies inside this ring, judged by its first vertex that is not on this ring's boundary
    /// (holes often touch their outer ring at a vertex).
    func contains(_ other: ClassifiedRing) -> Bool {
        guard box.minX <= other.box.minX, box.minY <= other.box.minY,
            box.maxX >= other.box.maxX, box.maxY >= other.box.maxY
        else { return false }
        for point in other.points {
            switch locate(point) {
            case .inside: return true
            case .outside: return false
            case .boundary: continue
            }
        }
        return true
    }

    private enum Location { case inside, outside, boundary }

    /// Even-odd ray casting towards +x, with exact on-segment detection.
    private func locate(_ point: Point2D) -> Location {
        var inside = false
        for index in 0..<(points.count - 1) {
            let a = points[index], b = points[index + 1]
            if point.x >= min(a.x, b.x), point.x <= max(a.x, b.x), point.y >= min(a.y, b.y), point.y <= max(a.y, b.y),
                (b.x - a.x) * (point.y - a.y) == (b.y - a.y) * (point.x - a.x)
            {
                return .boundary
            }
            if (a.y > point.y) != (b.y > point.y) {
                let crossingX = a.x + (point.y - a.y) * (b.x - a.x) / (b.y - a.y)
                if point.x < crossingX { inside.toggle() }
            }
        }
        return inside ? .inside : .outside
    }
}

/// Groups the rings of one shapefile polygon record into polygons.
///
/// Shapefile outer rings run clockwise and holes counter-clockwise. Each hole goes to the smallest outer ring
/// that contains it. A record with only counter-clockwise rings (written by tools that ignore the rule) is
/// read as outer rings only; so is a hole that lies outside every outer ring.
enum PolygonAssembly {
    static func polygons(from rings: [ClassifiedRing], onOrphanHole: () -> Void) -> [Polygon] {
        var outers = rings.filter(\.isClockwise)
        var holes = rings.filter { !$0.isClockwise }
        if outers.isEmpty {
            swap(&outers, &holes)
        }
        var holesOfOuter = Array(repeating: [Ring](), count: outers.count)
        // Smallest first, so that the first container found is the innermost one.
        let outersBySize = outers.indices.sorted { abs(outers[$0].signedArea) < abs(outers[$1].signedArea) }
        var orphans: [ClassifiedRing] = []
        for hole in holes {
            if let container = outersBySize.first(where: { outers[$0].contains(hole) }) {
                holesOfOuter[container].append(hole.points)
            } else {
                orphans.append(hole)
            }
        }
        var polygons = zip(outers, holesOfOuter).map { Polygon(exterior: $0.points, holes: $1) }
        for orphan in orphans {
            onOrphanHole()
            polygons.append(Polygon(exterior: orphan.points))
        }
        return polygons
    }
}
