import Foundation
import Travel411Core

/// Nominatim's `polygon_geojson`, `polygon_kml`, `polygon_svg` and `polygon_text`: at most one per request.
public enum NominatimGeometryOutput: String, CaseIterable, Sendable {
    case geojson, kml, svg, text

    /// The request parameter that asks for it.
    public var parameter: String { "polygon_" + rawValue }
}

/// A shape as Nominatim prints it: GeoJSON, KML, SVG path data or WKT, coordinates to 7 decimals
/// (about a centimetre), as PostGIS writes them for Nominatim.
public enum NominatimGeometryText {
    package static func number(_ value: Double) -> String { JSONText.number((value * 1e7).rounded() / 1e7) }

    private static func pairs(_ points: [Point2D], _ separator: String, _ format: (Point2D) -> String) -> String {
        points.map(format).joined(separator: separator)
    }

    public static func geoJSON(_ shape: Shape) -> String {
        func position(_ p: Point2D) -> String { "[\(number(p.x)),\(number(p.y))]" }
        func line(_ points: [Point2D]) -> String { "[" + pairs(points, ",", position) + "]" }
        func polygon(_ polygon: Polygon) -> String { "[" + ([polygon.exterior] + polygon.holes).map(line).joined(separator: ",") + "]" }
        switch shape {
        case .point(let p): return "{\"type\":\"Point\",\"coordinates\":\(position(p))}"
        case .multiPoint(let ps): return "{\"type\":\"MultiPoint\",\"coordinates\":\(line(ps))}"
        case .lineString(let ps): return "{\"type\":\"LineString\",\"coordinates\":\(line(ps))}"
        case .multiLineString(let lines):
            return "{\"type\":\"MultiLineString\",\"coordinates\":[" + lines.map(line).joined(separator: ",") + "]}"
        case .polygon(let p): return "{\"type\":\"Polygon\",\"coordinates\":\(polygon(p))}"
        case .multiPolygon(let ps):
            return "{\"type\":\"MultiPolygon\",\"coordinates\":[" + ps.map(polygon).joined(separator: ",") + "]}"
        }
    }

    /// Well-known text: `POLYGON((x y,x y,…))`.
    public static func wkt(_ shape: Shape) -> String {
        func line(_ points: [Point2D]) -> String { "(" + pairs(points, ",") { "\(number($0.x)) \(number($0.y))" } + ")" }
        func polygon(_ polygon: Polygon) -> String { "(" + ([polygon.exterior] + polygon.holes).map(line).joined(separator: ",") + ")" }
        switch shape {
        case .point(let p): return "POINT(\(number(p.x)) \(number(p.y)))"
        case .multiPoint(let ps): return "MULTIPOINT" + line(ps)
        case .lineString(let ps): return "LINESTRING" + line(ps)
        case .multiLineString(let lines): return "MULTILINESTRING(" + lines.map(line).joined(separator: ",") + ")"
        case .polygon(let p): return "POLYGON" + polygon(p)
        case .multiPolygon(let ps): return "MULTIPOLYGON(" + ps.map(polygon).joined(separator: ",") + ")"
        }
    }

    /// SVG path data with y pointing down, as PostGIS's ST_AsSVG: `M x -y L x -y … Z` (a point: `cx="x" cy="-y"`).
    public static func svg(_ shape: Shape) -> String {
        func path(_ points: [Point2D], closed: Bool) -> String {
            guard let first = points.first else { return "" }
            var text = "M \(number(first.x)) \(number(-first.y))"
            let rest = closed ? points.dropFirst().dropLast() : points.dropFirst()
            if !rest.isEmpty { text += " L " + rest.map { "\(number($0.x)) \(number(-$0.y))" }.joined(separator: " ") }
            return closed ? text + " Z" : text
        }
        switch shape {
        case .point(let p): return "cx=\"\(number(p.x))\" cy=\"\(number(-p.y))\""
        case .multiPoint(let ps): return ps.map { "cx=\"\(number($0.x))\" cy=\"\(number(-$0.y))\"" }.joined(separator: ",")
        case .lineString(let ps): return path(ps, closed: false)
        case .multiLineString(let lines): return lines.map { path($0, closed: false) }.joined(separator: " ")
        case .polygon, .multiPolygon: return shape.rings.map { path($0, closed: true) }.joined(separator: " ")
        }
    }

    /// KML geometry: `<Polygon><outerBoundaryIs><LinearRing><coordinates>x,y …</coordinates>…`.
    public static func kml(_ shape: Shape) -> String {
        func coordinates(_ points: [Point2D]) -> String {
            "<coordinates>" + pairs(points, " ") { "\(number($0.x)),\(number($0.y))" } + "</coordinates>"
        }
        func polygon(_ polygon: Polygon) -> String {
            "<Polygon><outerBoundaryIs><LinearRing>\(coordinates(polygon.exterior))</LinearRing></outerBoundaryIs>"
                + polygon.holes.map { "<innerBoundaryIs><LinearRing>\(coordinates($0))</LinearRing></innerBoundaryIs>" }.joined()
                + "</Polygon>"
        }
        switch shape {
        case .point(let p): return "<Point>\(coordinates([p]))</Point>"
        case .multiPoint(let ps): return "<MultiGeometry>" + ps.map { "<Point>\(coordinates([$0]))</Point>" }.joined() + "</MultiGeometry>"
        case .lineString(let ps): return "<LineString>\(coordinates(ps))</LineString>"
        case .multiLineString(let lines):
            return "<MultiGeometry>" + lines.map { "<LineString>\(coordinates($0))</LineString>" }.joined() + "</MultiGeometry>"
        case .polygon(let p): return polygon(p)
        case .multiPolygon(let ps): return "<MultiGeometry>" + ps.map(polygon).joined() + "</MultiGeometry>"
        }
    }
}

/// Outlines made small enough to send: Douglas-Peucker with `polygon_threshold` (degrees), then, while the
/// outline still has more than `maxVertices`, a doubled tolerance. A country at 1:10m has up to ~100,000
/// vertices (several MB of JSON); the cap keeps an answer to tens of kilobytes whatever the client asks.
public enum OutlineSimplifier {
    public static let maxVertices = 2_000

    public static func simplified(_ shape: Shape, threshold: Double, maxVertices: Int = maxVertices) -> Shape {
        var tolerance = max(0, threshold)
        var result = threshold > 0 ? simplify(shape, tolerance) : shape
        while vertexCount(result) > maxVertices {
            tolerance = tolerance > 0 ? tolerance * 2 : 0.0001
            result = simplify(shape, tolerance)
        }
        return result
    }

    static func vertexCount(_ shape: Shape) -> Int {
        var count = 0
        shape.forEachVertex { _ in count += 1 }
        return count
    }

    static func simplify(_ shape: Shape, _ tolerance: Double) -> Shape {
        switch shape {
        case .point, .multiPoint: return shape
        case .lineString(let ps): return .lineString(line(ps, tolerance))
        case .multiLineString(let lines): return .multiLineString(lines.map { line($0, tolerance) })
        case .polygon(let p): return simplify(polygon: p, tolerance).map(Shape.polygon) ?? shape
        case .multiPolygon(let ps):
            let kept = ps.compactMap { simplify(polygon: $0, tolerance) }
            // Small islands vanish at a coarse tolerance; the largest part always stays.
            if kept.isEmpty, let largest = ps.max(by: { $0.exterior.count < $1.exterior.count }) {
                return .polygon(simplify(polygon: largest, 0) ?? largest)
            }
            return kept.count == 1 ? .polygon(kept[0]) : .multiPolygon(kept)
        }
    }

    /// nil when the outer ring collapses below a triangle; holes that collapse are dropped.
    static func simplify(polygon: Polygon, _ tolerance: Double) -> Polygon? {
        guard let exterior = ring(polygon.exterior, tolerance) else { return nil }
        return Polygon(exterior: exterior, holes: polygon.holes.compactMap { ring($0, tolerance) })
    }

    static func ring(_ points: [Point2D], _ tolerance: Double) -> [Point2D]? {
        let kept = line(points, tolerance)
        return kept.count >= 4 ? kept : nil
    }

    /// Douglas-Peucker, iterative (a ring of 100,000 points would recurse too deep).
    static func line(_ points: [Point2D], _ tolerance: Double) -> [Point2D] {
        guard points.count > 2, tolerance > 0 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        let squaredTolerance = tolerance * tolerance
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            var farthest = first
            var farthestDistance = -1.0
            for index in (first + 1)..<last {
                let distance = squaredDistance(points[index], points[first], points[last])
                if distance > farthestDistance {
                    farthestDistance = distance
                    farthest = index
                }
            }
            if farthestDistance > squaredTolerance {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        return points.indices.compactMap { keep[$0] ? points[$0] : nil }
    }

    /// The squared distance from `p` to the segment a-b (a closed ring's first and last points coincide).
    static func squaredDistance(_ p: Point2D, _ a: Point2D, _ b: Point2D) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = dx * dx + dy * dy
        var t = length > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length : 0
        t = min(1, max(0, t))
        let x = a.x + t * dx - p.x, y = a.y + t * dy - p.y
        return x * x + y * y
    }
}
