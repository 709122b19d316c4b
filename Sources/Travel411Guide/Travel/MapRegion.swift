import Foundation
import Travel411Core

/// The part of the map that shows every pin: a centre and a span in degrees, as MapKit's
/// MKCoordinateRegion has it. Longitudes are handled on the circle, so pins on both sides of the
/// antimeridian give a narrow region there rather than one spanning the whole world.
public struct MapRegion: Hashable, Sendable, Codable {
    /// Added to the pins' extent so that no pin sits on the map's edge (the app's rule).
    public static let padding = 0.005
    /// No span is smaller than this, so a single pin still shows its surroundings (the app's rule).
    public static let minimumSpan = 0.01

    public var center: Coordinate
    public var latitudeDelta: Double
    public var longitudeDelta: Double

    public init(center: Coordinate, latitudeDelta: Double, longitudeDelta: Double) {
        self.center = center
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }

    /// The region for `coordinates`; nil when there are none.
    public static func fitting(_ coordinates: [Coordinate]) -> MapRegion? {
        guard let arc = LongitudeArc.smallest(containing: coordinates.map(\.longitude)),
            let south = coordinates.map(\.latitude).min(),
            let north = coordinates.map(\.latitude).max()
        else { return nil }
        let latitudeDelta = min(180, max(north - south + padding, minimumSpan))
        let longitudeDelta = min(360, max(arc.width + padding, minimumSpan))
        // Normalise only when the middle of the arc passes ±180, so plain cases keep exact values.
        let middle = arc.west + arc.width / 2
        let center = Coordinate(
            latitude: (south + north) / 2,
            longitude: (-180..<180).contains(middle) ? middle : GreatCircle.normalizedLongitude(middle))
        return MapRegion(center: center, latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
    }

    /// Southern edge, clamped to the pole.
    public var south: Double { max(-90, center.latitude - latitudeDelta / 2) }
    public var north: Double { min(90, center.latitude + latitudeDelta / 2) }
    /// Western edge in [-180, 180); greater than `east` when the region crosses the antimeridian.
    public var west: Double { GreatCircle.normalizedLongitude(center.longitude - longitudeDelta / 2) }
    public var east: Double { GreatCircle.normalizedLongitude(center.longitude + longitudeDelta / 2) }

    public var crossesAntimeridian: Bool {
        let half = longitudeDelta / 2
        return longitudeDelta < 360 && (center.longitude + half >= 180 || center.longitude - half < -180)
    }
}

/// A stretch of longitude going east from `west` for `width` degrees, possibly across ±180.
public struct LongitudeArc: Hashable, Sendable {
    public var west: Double
    public var width: Double

    /// The narrowest arc holding every longitude: the complement of the widest empty gap between
    /// neighbouring longitudes around the circle. Nil for no longitudes.
    public static func smallest(containing longitudes: [Double]) -> LongitudeArc? {
        let sorted = longitudes.map { (-180..<180).contains($0) ? $0 : GreatCircle.normalizedLongitude($0) }.sorted()
        guard let first = sorted.first, let last = sorted.last else { return nil }
        // The gap that wraps from the easternmost back round to the westernmost.
        var widestGap = first + 360 - last
        var west = first
        for (a, b) in zip(sorted, sorted.dropFirst()) where b - a > widestGap {
            widestGap = b - a
            west = b
        }
        return LongitudeArc(west: west, width: 360 - widestGap)
    }
}
