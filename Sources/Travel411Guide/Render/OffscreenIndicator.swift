import Foundation
import Travel411Core

/// The arrow that points to a location out of view: it lies on the line from the map's centre to
/// where the location would be drawn if the map went on, as far along it as the inset rectangle
/// allows, so it never leaves the inset.
public struct OffscreenIndicator: Hashable, Sendable {
    /// The arrow's point, on or inside the inset.
    public var tip: ScreenPoint
    /// The direction it points, in radians on screen (0 = right, π/2 = down).
    public var angle: Double

    /// Nil when `target` is inside `inset` (the location is in view: draw it instead).
    public static func pointing(from centre: ScreenPoint, to target: ScreenPoint, inset: ScreenRect) -> OffscreenIndicator? {
        guard target.x.isFinite, target.y.isFinite, !inset.contains(target) else { return nil }
        let dx = target.x - centre.x, dy = target.y - centre.y
        guard dx != 0 || dy != 0 else { return nil }
        // The largest t in (0, 1] for which centre + t·(dx, dy) is still inside the inset on each axis.
        var t = 1.0
        if dx > 0 { t = min(t, (inset.maxX - centre.x) / dx) } else if dx < 0 { t = min(t, (inset.minX - centre.x) / dx) }
        if dy > 0 { t = min(t, (inset.maxY - centre.y) / dy) } else if dy < 0 { t = min(t, (inset.minY - centre.y) / dy) }
        t = max(0, t)
        return OffscreenIndicator(tip: ScreenPoint(x: centre.x + t * dx, y: centre.y + t * dy), angle: atan2(dy, dx))
    }

    /// The arrow as a closed outline: `length` pixels long, ending at the tip.
    public func outline(length: Double = 26, halfWidth: Double = 11) -> [ScreenPoint] {
        let (c, s) = (cos(angle), sin(angle))
        func point(_ along: Double, _ across: Double) -> ScreenPoint {
            ScreenPoint(x: tip.x + along * c - across * s, y: tip.y + along * s + across * c)
        }
        return [point(0, 0), point(-length, halfWidth), point(-length * 0.7, 0), point(-length, -halfWidth)]
    }
}

/// A multi-line callout above a pin, and how far the map must move for every callout to fit.
public enum CalloutFit {
    /// The pixels to move the drawing by (right and down positive) so that `boxes` lie inside `area`:
    /// zero on an axis where they already fit; centred on an axis where they cannot all fit.
    public static func shift(for boxes: [ScreenRect], within area: ScreenRect) -> (dx: Double, dy: Double) {
        guard let first = boxes.first else { return (0, 0) }
        let union = boxes.dropFirst().reduce(first) { $0.union($1) }
        func axis(_ low: Double, _ high: Double, _ areaLow: Double, _ areaHigh: Double) -> Double {
            if high - low > areaHigh - areaLow { return (areaLow + areaHigh) / 2 - (low + high) / 2 }
            if low < areaLow { return areaLow - low }
            if high > areaHigh { return areaHigh - high }
            return 0
        }
        return (axis(union.minX, union.maxX, area.minX, area.maxX), axis(union.minY, union.maxY, area.minY, area.maxY))
    }

    /// As `shift(for:within:)`, and then, where a box still covers one of `keepOut` (the north arrow,
    /// the scale bar, the credits), a further move by the least of the four that clear it while the
    /// boxes stay inside `area`. A few rounds, since clearing one may meet another.
    public static func shift(for boxes: [ScreenRect], within area: ScreenRect, avoiding keepOut: [ScreenRect]) -> (dx: Double, dy: Double) {
        var (dx, dy) = shift(for: boxes, within: area)
        for _ in 0..<4 {
            let moved = boxes.map { $0.offsetBy(dx: dx, dy: dy) }
            guard let (box, obstacle) = moved.lazy.compactMap({ box in keepOut.first(where: box.intersects).map { (box, $0) } }).first
            else { break }
            let moves = [
                (0.0, obstacle.maxY - box.minY + 1), (0.0, obstacle.minY - box.maxY - 1),
                (obstacle.maxX - box.minX + 1, 0.0), (obstacle.minX - box.maxX - 1, 0.0),
            ].filter { move in moved.allSatisfy { area.contains($0.offsetBy(dx: move.0, dy: move.1)) } }
            guard let best = moves.min(by: { abs($0.0) + abs($0.1) < abs($1.0) + abs($1.1) }) else { break }
            dx += best.0
            dy += best.1
        }
        return (dx, dy)
    }
}
