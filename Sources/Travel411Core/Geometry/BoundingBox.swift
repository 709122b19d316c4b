import Foundation

/// An axis-aligned box in degrees (x = longitude, y = latitude). Boxes never wrap the antimeridian:
/// shapefile geometry is split there already, and region fitting handles wrap-around itself.
public struct BoundingBox: Hashable, Sendable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The empty box: extending it by any point gives that point.
    public static let empty = BoundingBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

    public var isEmpty: Bool { minX > maxX || minY > maxY }

    public mutating func extend(x: Double, y: Double) {
        if x < minX { minX = x }
        if x > maxX { maxX = x }
        if y < minY { minY = y }
        if y > maxY { maxY = y }
    }

    public mutating func extend(_ other: BoundingBox) {
        guard !other.isEmpty else { return }
        extend(x: other.minX, y: other.minY)
        extend(x: other.maxX, y: other.maxY)
    }

    public func intersects(_ other: BoundingBox) -> Bool {
        !(other.minX > maxX || other.maxX < minX || other.minY > maxY || other.maxY < minY)
    }

    /// The part both boxes cover (`isEmpty` when they do not meet).
    package func intersection(_ other: BoundingBox) -> BoundingBox {
        BoundingBox(minX: max(minX, other.minX), minY: max(minY, other.minY), maxX: min(maxX, other.maxX), maxY: min(maxY, other.maxY))
    }

    public func contains(x: Double, y: Double) -> Bool {
        x >= minX && x <= maxX && y >= minY && y <= maxY
    }

    /// Whether `other` lies wholly inside this box (edges included).
    package func contains(_ other: BoundingBox) -> Bool {
        minX <= other.minX && other.maxX <= maxX && minY <= other.minY && other.maxY <= maxY
    }

    /// The box with `degrees` more on every side.
    package func widened(by degrees: Double) -> BoundingBox {
        BoundingBox(minX: minX - degrees, minY: minY - degrees, maxX: maxX + degrees, maxY: maxY + degrees)
    }
}

extension BoundingBox {
    /// Every longitude and latitude within `metres` of `centre`. The width uses the most poleward
    /// latitude the circle reaches, so the box always holds the circle. Longitudes are not wrapped:
    /// near the antimeridian `minX` may fall below -180 or `maxX` rise above 180, and callers that
    /// index by longitude wrap them.
    @inlinable public init(around centre: Coordinate, metres: Double) {
        let dy = Self.latitudeDegrees(metres: metres)
        let poleward = min(89.999, abs(centre.latitude) + dy)
        let dx = min(180, dy / cos(poleward * .pi / 180))
        self.init(minX: centre.longitude - dx, minY: centre.latitude - dy, maxX: centre.longitude + dx, maxY: centre.latitude + dy)
    }

    /// The half-height in degrees of `init(around:metres:)`'s box: a caller can test the latitudes alone, which need
    /// no cosine, with the very numbers of the box.
    @inlinable public static func latitudeDegrees(metres: Double) -> Double {
        metres / (GreatCircle.earthRadiusMetres * .pi / 180)
    }

    /// ± `degrees` on both axes, as Nominatim draws a node's box.
    package init(around centre: Coordinate, degrees: Double) {
        self.init(
            minX: centre.longitude - degrees, minY: centre.latitude - degrees, maxX: centre.longitude + degrees,
            maxY: centre.latitude + degrees)
    }
}
