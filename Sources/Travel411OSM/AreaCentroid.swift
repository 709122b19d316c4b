import Travel411Core

extension Shape {
    /// The centroid of a (multi)polygon's area, holes taken out, in the plane of its coordinates (degrees), as
    /// osm2pgsql's `centroid()` gives it for a geometry in WGS84 (Nominatim 5.3's `place_postcode.centroid` of a
    /// postal_code relation, lib-lua/themes/nominatim/init.lua). Unlike `pointOnSurface` it may lie outside the
    /// polygon. Nil for other shapes and for a polygon without area.
    public var areaCentroid: Point2D? {
        let polygons: [Polygon]
        switch self {
        case .polygon(let polygon): polygons = [polygon]
        case .multiPolygon(let parts): polygons = parts
        default: return nil
        }
        guard let origin = polygons.first?.exterior.first else { return nil }
        // Summed relative to one vertex, so that the products keep their digits far from the origin.
        var area = 0.0, x = 0.0, y = 0.0
        func add(_ ring: Ring, sign: Double) {
            let orientation = Self.signedArea(of: ring) < 0 ? -1.0 : 1.0
            for (start, end) in zip(ring, ring.dropFirst()) {
                let x0 = start.x - origin.x, y0 = start.y - origin.y, x1 = end.x - origin.x, y1 = end.y - origin.y
                let cross = (x0 * y1 - x1 * y0) * orientation * sign
                area += cross
                x += (x0 + x1) * cross
                y += (y0 + y1) * cross
            }
        }
        for polygon in polygons {
            add(polygon.exterior, sign: 1)
            for hole in polygon.holes { add(hole, sign: -1) }
        }
        guard area != 0 else { return nil }
        return Point2D(x: origin.x + x / (3 * area), y: origin.y + y / (3 * area))
    }
}
