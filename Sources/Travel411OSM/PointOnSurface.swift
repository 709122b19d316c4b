import Travel411Core

extension Shape {
    /// A point that lies on the shape: a point's own, the point halfway along a line (the longest part of a
    /// multi-line), and for a (multi)polygon a point strictly inside its largest part, outside every hole.
    ///
    /// The polygon's point comes from a horizontal line through the middle of the part's bounding box, nudged to
    /// lie between two vertex latitudes so that it crosses edges, never vertices: the crossings, sorted, pair up
    /// into stretches that are inside (even-odd), and the middle of the widest stretch is inside. A centroid is
    /// not always inside (a crescent, a ring round a lake); this is, for any polygon with a non-zero area.
    public var pointOnSurface: Point2D {
        switch self {
        case .point(let point): return point
        case .multiPoint(let points): return points.first ?? Point2D(x: 0, y: 0)
        case .lineString(let line): return Self.halfway(along: line)
        case .multiLineString(let lines):
            return Self.halfway(along: lines.max { Self.length(of: $0) < Self.length(of: $1) } ?? [])
        case .polygon(let polygon): return Self.interiorPoint(of: polygon)
        case .multiPolygon(let polygons):
            let largest = polygons.max { abs(Self.signedArea(of: $0.exterior)) < abs(Self.signedArea(of: $1.exterior)) }
            return largest.map(Self.interiorPoint(of:)) ?? Point2D(x: 0, y: 0)
        }
    }

    static func length(of line: [Point2D]) -> Double {
        zip(line, line.dropFirst()).reduce(0) {
            $0 + ((($1.1.x - $1.0.x) * ($1.1.x - $1.0.x)) + (($1.1.y - $1.0.y) * ($1.1.y - $1.0.y))).squareRoot()
        }
    }

    static func halfway(along line: [Point2D]) -> Point2D {
        guard let first = line.first else { return Point2D(x: 0, y: 0) }
        var remaining = length(of: line) / 2
        for (start, end) in zip(line, line.dropFirst()) {
            let segment = ((end.x - start.x) * (end.x - start.x) + (end.y - start.y) * (end.y - start.y)).squareRoot()
            if segment > 0, remaining <= segment {
                let fraction = remaining / segment
                return Point2D(x: start.x + (end.x - start.x) * fraction, y: start.y + (end.y - start.y) * fraction)
            }
            remaining -= segment
        }
        return line.last ?? first
    }

    static func signedArea(of ring: Ring) -> Double {
        zip(ring, ring.dropFirst()).reduce(0) { $0 + ($1.0.x * $1.1.y - $1.1.x * $1.0.y) } / 2
    }

    static func interiorPoint(of polygon: Polygon) -> Point2D {
        let rings = [polygon.exterior] + polygon.holes
        guard let first = polygon.exterior.first else { return Point2D(x: 0, y: 0) }
        let latitudes = Set(rings.joined().map(\.y)).sorted()
        guard latitudes.count >= 2, let low = latitudes.first, let high = latitudes.last else { return first }
        // The gap between two consecutive vertex latitudes that holds the box's middle line.
        let middle = (low + high) / 2
        var upper = latitudes.firstIndex { $0 > middle } ?? latitudes.count - 1
        upper = max(upper, 1)
        let y = (latitudes[upper - 1] + latitudes[upper]) / 2
        var crossings: [Double] = []
        for ring in rings {
            for (start, end) in zip(ring, ring.dropFirst()) where (start.y < y) != (end.y < y) {
                crossings.append(start.x + (y - start.y) * (end.x - start.x) / (end.y - start.y))
            }
        }
        crossings.sort()
        var best: (x: Double, width: Double)?
        var index = 0
        while index + 1 < crossings.count {
            let width = crossings[index + 1] - crossings[index]
            if width > (best?.width ?? -1) {
                best = ((crossings[index] + crossings[index + 1]) / 2, width)
            }
            index += 2
        }
        guard let best else { return first }
        return Point2D(x: best.x, y: y)
    }
}
