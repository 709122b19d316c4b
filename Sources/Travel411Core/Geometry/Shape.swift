/// A planar position in degrees: x = longitude, y = latitude, as shapefiles and WKB store them.
public struct Point2D: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A closed ring of a polygon part (first point repeated last, as shapefiles write it).
public typealias Ring = [Point2D]

/// One polygon: an outer ring and its holes.
public struct Polygon: Hashable, Sendable {
    public var exterior: Ring
    public var holes: [Ring]
    public init(exterior: Ring, holes: [Ring] = []) {
        self.exterior = exterior
        self.holes = holes
    }
}

/// Feature geometry in the shapes the importer stores. Multi-part shapefile records become the multi cases.
public enum Shape: Hashable, Sendable {
    case point(Point2D)
    case multiPoint([Point2D])
    case lineString([Point2D])
    case multiLineString([[Point2D]])
    case polygon(Polygon)
    case multiPolygon([Polygon])

    public var boundingBox: BoundingBox {
        var box = BoundingBox.empty
        forEachVertex { box.extend(x: $0.x, y: $0.y) }
        return box
    }

    public func forEachVertex(_ body: (Point2D) -> Void) {
        switch self {
        case .point(let p): body(p)
        case .multiPoint(let ps), .lineString(let ps): ps.forEach(body)
        case .multiLineString(let lines): lines.forEach { $0.forEach(body) }
        case .polygon(let polygon):
            polygon.exterior.forEach(body)
            polygon.holes.forEach { $0.forEach(body) }
        case .multiPolygon(let polygons):
            for polygon in polygons {
                polygon.exterior.forEach(body)
                polygon.holes.forEach { $0.forEach(body) }
            }
        }
    }

    /// Every ring of a (multi)polygon, outer and inner alike: even-odd tests need no distinction.
    public var rings: [Ring] {
        switch self {
        case .polygon(let polygon): return [polygon.exterior] + polygon.holes
        case .multiPolygon(let polygons): return polygons.flatMap { [$0.exterior] + $0.holes }
        default: return []
        }
    }

    /// Every polyline of a (multi)linestring.
    public var lines: [[Point2D]] {
        switch self {
        case .lineString(let line): return [line]
        case .multiLineString(let lines): return lines
        default: return []
        }
    }
}

extension Shape {
    /// Even-odd over every ring: inside an outer ring and outside its holes.
    public func contains(x: Double, y: Double) -> Bool { Self.ringsContain(rings, x: x, y: y) }

    /// The same over bare rings (a building's outline as the import keeps it), closed or not.
    static func ringsContain(_ rings: [Ring], x: Double, y: Double) -> Bool {
        var inside = false
        for ring in rings where ring.count > 2 {
            var previous = ring[ring.count - 1]
            for point in ring {
                if (point.y > y) != (previous.y > y), x < (previous.x - point.x) * (y - point.y) / (previous.y - point.y) + point.x {
                    inside.toggle()
                }
                previous = point
            }
        }
        return inside
    }
}
