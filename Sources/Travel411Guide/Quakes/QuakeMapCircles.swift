import Foundation
import Travel411Core

/// The map's data side for `quakes --map`: what to draw (circles sized and coloured by the seed
/// app's rule), in which order, and over which extent. It is plain data in geographic coordinates,
/// for the map renderer (`travel411 map`) to project and draw.

/// A colour with components in [0, 1].
public struct QuakeCircleColour: Hashable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var opacity: Double

    public init(red: Double, green: Double, blue: Double, opacity: Double) {
        self.red = red
        self.green = green
        self.blue = blue
        self.opacity = opacity
    }

    /// "#ffcc36", for SVG fills (with the opacity given apart, as `fill-opacity`).
    public var hex: String {
        [red, green, blue].map { String(format: "%02x", Int(($0 * 255).rounded())) }.joined().withHash
    }
}

private extension String {
    var withHash: String { "#" + self }
}

/// The seed app's rule: a circle `magnitude² × 0.75` points wide, coloured RGB
/// (1, 1 − 0.015·magnitude², 0.211) at 60 % opacity, so larger quakes are larger and redder.
public enum QuakeCircleStyle {
    public static let pointsPerMagnitudeSquared = 0.75
    public static let greenFallPerMagnitudeSquared = 0.015
    public static let blue = 0.211
    public static let opacity = 0.6
    /// The rule gives magnitude 1 under a point; no circle is drawn smaller than this, so every event shows.
    public static let minimumDiameterPoints = 1.0

    /// Negative magnitudes (tiny local events) count as 0: squaring would draw them as large as positive ones.
    public static func diameterPoints(magnitude: Double) -> Double {
        let m = max(0, magnitude)
        return max(minimumDiameterPoints, m * m * pointsPerMagnitudeSquared)
    }

    /// Each component clamped to [0, 1]: from magnitude 8.2 on the green is 0, pure red.
    public static func colour(magnitude: Double) -> QuakeCircleColour {
        let m = max(0, magnitude)
        let green = min(1, max(0, 1 - greenFallPerMagnitudeSquared * m * m))
        return QuakeCircleColour(red: 1, green: green, blue: blue, opacity: opacity)
    }
}

/// One event to draw.
public struct QuakeCircle: Hashable, Sendable {
    public var coordinate: Coordinate
    public var magnitude: Double
    public var diameterPoints: Double
    public var colour: QuakeCircleColour
    public var id: String?
    /// The tooltip/title text: "M 4.6 · 2024-08-07 13:27:10 UTC · 34 km SSW of Hachijō".
    public var title: String

    public init(quake: Quake, magnitude: Double, title: String? = nil) {
        coordinate = quake.coordinate
        self.magnitude = magnitude
        diameterPoints = QuakeCircleStyle.diameterPoints(magnitude: magnitude)
        colour = QuakeCircleStyle.colour(magnitude: magnitude)
        id = quake.id
        self.title = title ?? "M \(QuakeNumbers.magnitude(magnitude)) · \(quake.time.readable) UTC" + (quake.place.map { " · " + $0 } ?? "")
    }
}

/// The circles for a set of events, in drawing order.
public struct QuakeMapCircles: Sendable {
    /// Largest first, so the small ones are drawn on top and stay visible; equal sizes keep the
    /// events' order.
    public var circles: [QuakeCircle]
    /// Events without a magnitude: they have no size by the rule, so they are not drawn.
    public var withoutMagnitude: Int

    public init(_ quakes: [Quake], titles: [String]? = nil) {
        var circles: [(index: Int, circle: QuakeCircle)] = []
        var withoutMagnitude = 0
        for (index, quake) in quakes.enumerated() {
            guard let magnitude = quake.magnitude else {
                withoutMagnitude += 1
                continue
            }
            let title = titles.flatMap { index < $0.count ? $0[index] : nil }
            circles.append((index, QuakeCircle(quake: quake, magnitude: magnitude, title: title)))
        }
        circles.sort { a, b in
            a.circle.diameterPoints != b.circle.diameterPoints ? a.circle.diameterPoints > b.circle.diameterPoints : a.index < b.index
        }
        self.circles = circles.map(\.circle)
        self.withoutMagnitude = withoutMagnitude
    }

    /// The circles of geocoded events, each titled with its time, magnitude and our description,
    /// for the renderer's callouts.
    public init(_ items: [GeocodedQuake]) {
        self.init(
            items.map(\.quake),
            titles: items.map { item in
                let magnitude = item.quake.magnitude.map { "M \(QuakeNumbers.magnitude($0)) · " } ?? ""
                return "\(magnitude)\(item.quake.time.readable) UTC · \(item.description)"
            })
    }

    /// The legend: a circle for each whole magnitude from the smallest to the largest shown (at
    /// most six, evenly spread), drawn by the same rule.
    public var legend: [QuakeLegendEntry] {
        guard let low = circles.map(\.magnitude).min(), let high = circles.map(\.magnitude).max() else { return [] }
        let first = max(0, Int(low.rounded(.down))), last = max(first, Int(high.rounded(.up)))
        let step = max(1, Int((Double(last - first) / 5).rounded(.up)))
        return stride(from: first, through: last, by: step).map { QuakeLegendEntry(magnitude: Double($0)) }
    }
}

public struct QuakeLegendEntry: Hashable, Sendable {
    public var magnitude: Double
    public var diameterPoints: Double
    public var colour: QuakeCircleColour
    /// "M 5".
    public var label: String

    public init(magnitude: Double) {
        self.magnitude = magnitude
        diameterPoints = QuakeCircleStyle.diameterPoints(magnitude: magnitude)
        colour = QuakeCircleStyle.colour(magnitude: magnitude)
        label = "M \(JSONText.number(magnitude))"
    }
}

/// Whether the events need the whole world or fit a regional map.
public enum QuakeMapExtent: Hashable, Sendable {
    case world
    case regional(MapRegion)

    /// Wider than this in longitude, or taller than this in latitude, and a regional map would
    /// stretch to nearly the world anyway.
    public static let worldLongitudeSpan = 150.0
    public static let worldLatitudeSpan = 90.0
    /// Room around the events: this fraction of their extent on each side, and at least `minimumMargin` degrees.
    public static let marginFraction = 0.15
    public static let minimumMargin = 2.0

    /// Longitudes are fitted on the circle (`LongitudeArc`): events around Fiji and Tonga, either side
    /// of ±180°, make a narrow region across the antimeridian, not a band round the world.
    public static func fitting(_ coordinates: [Coordinate]) -> QuakeMapExtent {
        guard let arc = LongitudeArc.smallest(containing: coordinates.map(\.longitude)),
            let south = coordinates.map(\.latitude).min(), let north = coordinates.map(\.latitude).max()
        else { return .world }
        let latitudeSpan = north - south
        guard arc.width <= worldLongitudeSpan, latitudeSpan <= worldLatitudeSpan else { return .world }
        let longitudeMargin = max(minimumMargin, arc.width * marginFraction)
        let latitudeMargin = max(minimumMargin, latitudeSpan * marginFraction)
        let longitudeDelta = arc.width + 2 * longitudeMargin
        // Web Mercator stops short of the poles; a region is kept inside ±85°.
        let paddedSouth = max(-85, south - latitudeMargin), paddedNorth = min(85, north + latitudeMargin)
        let middle = GreatCircle.normalizedLongitude(arc.west + arc.width / 2)
        return .regional(
            MapRegion(
                center: Coordinate(latitude: (paddedSouth + paddedNorth) / 2, longitude: middle),
                latitudeDelta: paddedNorth - paddedSouth, longitudeDelta: longitudeDelta))
    }
}
