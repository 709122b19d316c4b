/// A point that lies inside a polygon, to stand for it where a point is needed (a building's address, a
/// place drawn as an area). The centroid of an L- or U-shaped building can fall outside it, in the next
/// plot; the middle of the widest stretch of the polygon along the line through the centroid's latitude
/// cannot.
public enum PointOnSurface {
    /// Nil for a shape with no area (no rings, or rings of fewer than three points).
    public static func of(_ shape: Shape) -> Point2D? {
        switch shape {
        case .point(let p): return p
        case .multiPoint(let points): return points.first
        case .lineString(let line): return line.isEmpty ? nil : line[line.count / 2]
        case .multiLineString(let lines): return lines.first { !$0.isEmpty }.map { $0[$0.count / 2] }
        case .polygon(let polygon): return of(polygon)
        case .multiPolygon(let polygons):
            // The largest part: a building's main block, not its detached garage.
            return polygons.max { abs(signedArea($0.exterior)) < abs(signedArea($1.exterior)) }.flatMap { of($0) }
        }
    }

    static func of(_ polygon: Polygon) -> Point2D? {
        let ring = polygon.exterior
        guard ring.count >= 3 else { return nil }
        let centre = centroid(ring)
        let rings = [ring] + polygon.holes
        // Where the horizontal line through the centroid crosses the rings; between crossings 0-1, 2-3, …
        // the line is inside (even-odd).
        var crossings: [Double] = []
        for r in rings where r.count >= 2 {
            for i in 0..<r.count {
                let a = r[i], b = r[(i + 1) % r.count]
                if (a.y > centre.y) != (b.y > centre.y) {
                    crossings.append(a.x + (centre.y - a.y) / (b.y - a.y) * (b.x - a.x))
                }
            }
        }
        crossings.sort()
        var best: (width: Double, x: Double)?
        var i = 0
        while i + 1 < crossings.count {
            let width = crossings[i + 1] - crossings[i]
            if width > best?.width ?? -1 { best = (width, (crossings[i] + crossings[i + 1]) / 2) }
            i += 2
        }
        guard let best, best.width > 0 else { return centre }
        return Point2D(x: best.x, y: centre.y)
    }

    /// The area-weighted centroid, or the mean of the vertices for a ring without area.
    static func centroid(_ ring: Ring) -> Point2D {
        var area = 0.0, cx = 0.0, cy = 0.0
        let origin = ring[0]
        for i in 0..<ring.count {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            let ax = a.x - origin.x, ay = a.y - origin.y, bx = b.x - origin.x, by = b.y - origin.y
            let cross = ax * by - bx * ay
            area += cross
            cx += (ax + bx) * cross
            cy += (ay + by) * cross
        }
        if abs(area) < 1e-18 {
            let n = Double(ring.count)
            return Point2D(x: ring.reduce(0) { $0 + $1.x } / n, y: ring.reduce(0) { $0 + $1.y } / n)
        }
        return Point2D(x: origin.x + cx / (3 * area), y: origin.y + cy / (3 * area))
    }

    static func signedArea(_ ring: Ring) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        for i in 0..<ring.count {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }
}
