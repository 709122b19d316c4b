import Travel411Core

/// Whether a closed way's nodes make a polygon libosmium's area assembler accepts: at least three distinct
/// corners, a non-zero area, and no two edges that cross or touch other than neighbours at their shared corner.
/// osm2pgsql's `as_polygon()` assembles a closed way with that assembler and gives no polygon for a ring that
/// fails; Nominatim's style then stores the way as a line (`process_way`, lib-lua/themes/nominatim/init.lua,
/// Nominatim 5.3).
enum SimpleRing {
    static func isSimple(_ points: [Point2D]) -> Bool {
        var ring = points
        if ring.first != ring.last, let first = ring.first { ring.append(first) }
        // Repeated nodes in a row are one corner, as the assembler reads them.
        ring = ring.enumerated().filter { $0.offset == 0 || ring[$0.offset - 1] != $0.element }.map(\.element)
        let edges = ring.count - 1
        guard edges >= 3, Shape.signedArea(of: ring) != 0 else { return false }
        for i in 0..<edges {
            let a = ring[i], b = ring[i + 1]
            let (minX, maxX, minY, maxY) = (min(a.x, b.x), max(a.x, b.x), min(a.y, b.y), max(a.y, b.y))
            for j in stride(from: i + 2, to: edges, by: 1) where !(i == 0 && j == edges - 1) {
                let c = ring[j], d = ring[j + 1]
                if max(c.x, d.x) < minX || min(c.x, d.x) > maxX || max(c.y, d.y) < minY || min(c.y, d.y) > maxY { continue }
                if segmentsMeet(a, b, c, d) { return false }
            }
        }
        return true
    }

    /// Whether the segments ab and cd have a point in common, their ends included.
    private static func segmentsMeet(_ a: Point2D, _ b: Point2D, _ c: Point2D, _ d: Point2D) -> Bool {
        func side(_ p: Point2D, _ q: Point2D, _ r: Point2D) -> Double { (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x) }
        func within(_ p: Point2D, _ q: Point2D, _ r: Point2D) -> Bool {
            min(p.x, q.x) <= r.x && r.x <= max(p.x, q.x) && min(p.y, q.y) <= r.y && r.y <= max(p.y, q.y)
        }
        let d1 = side(c, d, a), d2 = side(c, d, b), d3 = side(a, b, c), d4 = side(a, b, d)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        return (d1 == 0 && within(c, d, a)) || (d2 == 0 && within(c, d, b)) || (d3 == 0 && within(a, b, c))
            || (d4 == 0 && within(a, b, d))
    }
}
