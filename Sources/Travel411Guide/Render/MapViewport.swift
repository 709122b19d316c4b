import Foundation
import Travel411Core

/// A point on the output, in pixels from the top-left corner, y downwards.
public typealias ScreenPoint = Point2D

/// An axis-aligned rectangle in pixels.
public struct ScreenRect: Hashable, Sendable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public var centre: ScreenPoint { ScreenPoint(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }

    public func intersects(_ other: ScreenRect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    public func contains(_ point: ScreenPoint, tolerance: Double = 0) -> Bool {
        point.x >= minX - tolerance && point.x <= maxX + tolerance && point.y >= minY - tolerance && point.y <= maxY + tolerance
    }

    public func contains(_ rect: ScreenRect) -> Bool {
        rect.minX >= minX && rect.maxX <= maxX && rect.minY >= minY && rect.maxY <= maxY
    }

    public func insetBy(_ amount: Double) -> ScreenRect {
        ScreenRect(minX: minX + amount, minY: minY + amount, maxX: maxX - amount, maxY: maxY - amount)
    }

    public func union(_ other: ScreenRect) -> ScreenRect {
        ScreenRect(minX: min(minX, other.minX), minY: min(minY, other.minY), maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }

    public func offsetBy(dx: Double, dy: Double) -> ScreenRect {
        ScreenRect(minX: minX + dx, minY: minY + dy, maxX: maxX + dx, maxY: maxY + dy)
    }
}

/// Web Mercator, as web maps draw the world: x is linear in longitude, y in the Mercator latitude.
/// Longitudes are measured from the view's centre the short way round, so a view across ±180°
/// (Fiji) is one piece and never a smear over the whole world.
public struct MapViewport: Hashable, Sendable {
    /// Mercator stops at ±85.0511°, where the map is as tall as it is wide.
    public static let latitudeLimit = 85.051_128_78

    public let width: Double
    public let height: Double
    public let centre: Coordinate
    /// Pixels per degree of longitude; a degree of Mercator y has the same length.
    public let pixelsPerDegree: Double

    public init(width: Double, height: Double, centre: Coordinate, pixelsPerDegree: Double) {
        self.width = width
        self.height = height
        self.centre = Coordinate(
            latitude: max(-Self.latitudeLimit, min(Self.latitudeLimit, centre.latitude)),
            longitude: GreatCircle.normalizedLongitude(centre.longitude))
        self.pixelsPerDegree = pixelsPerDegree
    }

    /// The view that shows all of `region` inside the output less `margin` pixels on every side,
    /// as large as that allows. It never shows more than the world's width.
    public static func fitting(_ region: MapRegion, width: Double, height: Double, margin: Double) -> MapViewport {
        let south = mercatorY(region.south), north = mercatorY(region.north)
        let centreY = (south + north) / 2
        let usableWidth = max(1, width - 2 * margin), usableHeight = max(1, height - 2 * margin)
        let lonSpan = max(1e-9, min(360, region.longitudeDelta)), ySpan = max(1e-9, north - south)
        let scale = max(min(usableWidth / lonSpan, usableHeight / ySpan), width / 360)
        return MapViewport(
            width: width, height: height,
            centre: Coordinate(latitude: latitude(mercatorY: centreY), longitude: region.center.longitude),
            pixelsPerDegree: scale)
    }

    /// Mercator y in degrees: equal to the latitude at the equator, growing without bound at the poles.
    public static func mercatorY(_ latitude: Double) -> Double {
        let φ = max(-latitudeLimit, min(latitudeLimit, latitude)) * .pi / 180
        return log(tan(.pi / 4 + φ / 2)) * 180 / .pi
    }

    public static func latitude(mercatorY y: Double) -> Double {
        (2 * atan(exp(y * .pi / 180)) - .pi / 2) * 180 / .pi
    }

    public var bounds: ScreenRect { ScreenRect(minX: 0, minY: 0, maxX: width, maxY: height) }
    public var centrePoint: ScreenPoint { ScreenPoint(x: width / 2, y: height / 2) }

    private var centreMercatorY: Double { Self.mercatorY(centre.latitude) }

    /// Where `coordinate` is drawn, taking the short way round from the centre's longitude.
    public func project(_ coordinate: Coordinate) -> ScreenPoint {
        let dLon = GreatCircle.normalizedLongitude(coordinate.longitude - centre.longitude)
        return ScreenPoint(
            x: width / 2 + dLon * pixelsPerDegree,
            y: height / 2 - (Self.mercatorY(coordinate.latitude) - centreMercatorY) * pixelsPerDegree)
    }

    /// A ring or line of (longitude, latitude) points, unwrapped so that each step takes the short way:
    /// a shape crossing ±180° stays in one piece.
    public func project(lonLat points: [Point2D]) -> [ScreenPoint] {
        guard let first = points.first else { return [] }
        var result: [ScreenPoint] = []
        result.reserveCapacity(points.count)
        let centreY = centreMercatorY
        var lon = centre.longitude + GreatCircle.normalizedLongitude(first.x - centre.longitude)
        var previous = first.x
        for point in points {
            lon += GreatCircle.normalizedLongitude(point.x - previous)
            previous = point.x
            result.append(
                ScreenPoint(
                    x: width / 2 + (lon - centre.longitude) * pixelsPerDegree,
                    y: height / 2 - (Self.mercatorY(point.y) - centreY) * pixelsPerDegree))
        }
        return result
    }

    public func project(_ coordinates: [Coordinate]) -> [ScreenPoint] {
        project(lonLat: coordinates.map { Point2D(x: $0.longitude, y: $0.latitude) })
    }

    /// The coordinate drawn at `point`.
    public func coordinate(at point: ScreenPoint) -> Coordinate {
        let lon = centre.longitude + (point.x - width / 2) / pixelsPerDegree
        let y = centreMercatorY - (point.y - height / 2) / pixelsPerDegree
        return Coordinate(latitude: Self.latitude(mercatorY: y), longitude: GreatCircle.normalizedLongitude(lon))
    }

    /// Ground metres per pixel at `latitude` (the centre's by default).
    public func metresPerPixel(atLatitude latitude: Double? = nil) -> Double {
        let φ = (latitude ?? centre.latitude) * .pi / 180
        return 2 * .pi * GreatCircle.earthRadiusMetres / 360 * cos(φ) / pixelsPerDegree
    }

    /// Degrees of longitude across the whole output.
    public var longitudeSpan: Double { width / pixelsPerDegree }

    /// The part of the world the output shows, as a region (its edges may cross ±180°).
    public var visibleRegion: MapRegion {
        let north = Self.latitude(mercatorY: centreMercatorY + height / 2 / pixelsPerDegree)
        let south = Self.latitude(mercatorY: centreMercatorY - height / 2 / pixelsPerDegree)
        return MapRegion(
            center: Coordinate(latitude: (north + south) / 2, longitude: centre.longitude),
            latitudeDelta: north - south, longitudeDelta: min(360, longitudeSpan))
    }

    /// The same scale, with everything drawn `dx`, `dy` pixels further right and down.
    public func moved(dx: Double, dy: Double) -> MapViewport {
        MapViewport(
            width: width, height: height,
            centre: coordinate(at: ScreenPoint(x: width / 2 - dx, y: height / 2 - dy)),
            pixelsPerDegree: pixelsPerDegree)
    }
}
