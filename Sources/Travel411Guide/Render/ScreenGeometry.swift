import Foundation
import Travel411Core

/// Clipping and thinning of projected shapes, so that a country drawn on a city map does not send
/// thousands of far-away vertices (or huge coordinates) to the backends.
enum ScreenGeometry {
    /// Drops points closer than `tolerance` pixels to the last one kept (the last point is kept).
    static func thinned(_ points: [ScreenPoint], tolerance: Double = 0.4) -> [ScreenPoint] {
        guard points.count > 2 else { return points }
        var result = [points[0]]
        for point in points.dropFirst().dropLast() {
            let last = result[result.count - 1]
            if abs(point.x - last.x) >= tolerance || abs(point.y - last.y) >= tolerance { result.append(point) }
        }
        result.append(points[points.count - 1])
        return result
    }

    /// A (longitude, latitude) ring as open lines, broken where an edge runs along ±180°.
    static func withoutAntimeridianEdges(_ ring: [Point2D]) -> [[Point2D]] {
        guard let first = ring.first else { return [] }
        var closed = ring
        if closed.last != first { closed.append(first) }
        var parts: [[Point2D]] = []
        var current: [Point2D] = [first]
        for (a, b) in zip(closed, closed.dropFirst()) {
            if abs(a.x) >= 179.9999, abs(b.x) >= 179.9999, (a.x > 0) == (b.x > 0) {
                if current.count > 1 { parts.append(current) }
                current = [b]
            } else {
                current.append(b)
            }
        }
        if current.count > 1 { parts.append(current) }
        return parts
    }

    static func bounds(_ points: [ScreenPoint]) -> ScreenRect {
        var rect = ScreenRect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for p in points {
            rect.minX = min(rect.minX, p.x)
            rect.maxX = max(rect.maxX, p.x)
            rect.minY = min(rect.minY, p.y)
            rect.maxY = max(rect.maxY, p.y)
        }
        return rect
    }

    /// A closed ring cut to `rect` (Sutherland–Hodgman). Edges along the rectangle may appear; the
    /// caller keeps `rect` outside the visible area so they are never seen.
    static func clippedRing(_ ring: [ScreenPoint], to rect: ScreenRect) -> [ScreenPoint] {
        let box = bounds(ring)
        guard box.intersects(rect) else { return [] }
        if rect.contains(box) { return ring }
        var output = ring
        let edges: [(ScreenPoint) -> Bool] = [{ $0.x >= rect.minX }, { $0.x <= rect.maxX }, { $0.y >= rect.minY }, { $0.y <= rect.maxY }]
        let crossings: [(ScreenPoint, ScreenPoint) -> ScreenPoint] = [
            { a, b in intersect(a, b, x: rect.minX) }, { a, b in intersect(a, b, x: rect.maxX) },
            { a, b in intersect(a, b, y: rect.minY) }, { a, b in intersect(a, b, y: rect.maxY) },
        ]
        for (inside, crossing) in zip(edges, crossings) {
            guard let last = output.last else { return [] }
            let input = output
            output = []
            output.reserveCapacity(input.count)
            var previous = last
            for current in input {
                if inside(current) {
                    if !inside(previous) { output.append(crossing(previous, current)) }
                    output.append(current)
                } else if inside(previous) {
                    output.append(crossing(previous, current))
                }
                previous = current
            }
        }
        return output.count >= 3 ? output : []
    }

    /// The parts of an open line inside `rect`.
    static func clippedLine(_ line: [ScreenPoint], to rect: ScreenRect) -> [[ScreenPoint]] {
        guard line.count > 1 else { return [] }
        if rect.contains(bounds(line)) { return [line] }
        var parts: [[ScreenPoint]] = []
        var current: [ScreenPoint] = []
        for (a, b) in zip(line, line.dropFirst()) {
            guard let (from, to) = clippedSegment(a, b, to: rect) else {
                if current.count > 1 { parts.append(current) }
                current = []
                continue
            }
            if current.isEmpty || current[current.count - 1] != from {
                if current.count > 1 { parts.append(current) }
                current = [from]
            }
            current.append(to)
            if to != b {
                parts.append(current)
                current = []
            }
        }
        if current.count > 1 { parts.append(current) }
        return parts
    }

    /// Liang–Barsky.
    static func clippedSegment(_ a: ScreenPoint, _ b: ScreenPoint, to rect: ScreenRect) -> (ScreenPoint, ScreenPoint)? {
        let dx = b.x - a.x, dy = b.y - a.y
        var t0 = 0.0, t1 = 1.0
        for (p, q) in [(-dx, a.x - rect.minX), (dx, rect.maxX - a.x), (-dy, a.y - rect.minY), (dy, rect.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 {
                    if r > t1 { return nil }
                    t0 = max(t0, r)
                } else {
                    if r < t0 { return nil }
                    t1 = min(t1, r)
                }
            }
        }
        let from = t0 == 0 ? a : ScreenPoint(x: a.x + t0 * dx, y: a.y + t0 * dy)
        let to = t1 == 1 ? b : ScreenPoint(x: a.x + t1 * dx, y: a.y + t1 * dy)
        return (from, to)
    }

    private static func intersect(_ a: ScreenPoint, _ b: ScreenPoint, x: Double) -> ScreenPoint {
        let t = (x - a.x) / (b.x - a.x)
        return ScreenPoint(x: x, y: a.y + t * (b.y - a.y))
    }

    private static func intersect(_ a: ScreenPoint, _ b: ScreenPoint, y: Double) -> ScreenPoint {
        let t = (y - a.y) / (b.y - a.y)
        return ScreenPoint(x: a.x + t * (b.x - a.x), y: y)
    }
}

/// Keeps labels and symbols from overlapping: a label is set only where it meets nothing already placed.
struct LabelPlacer {
    private(set) var occupied: [ScreenRect] = []
    let area: ScreenRect

    init(area: ScreenRect) { self.area = area }

    mutating func reserve(_ rect: ScreenRect) { occupied.append(rect) }

    func isFree(_ rect: ScreenRect) -> Bool {
        area.contains(rect) && !occupied.contains { $0.intersects(rect) }
    }

    /// Takes the first free rectangle of `candidates`; nil if none is free.
    mutating func place(_ candidates: [ScreenRect]) -> Int? {
        for (index, rect) in candidates.enumerated() where isFree(rect) {
            occupied.append(rect)
            return index
        }
        return nil
    }
}
