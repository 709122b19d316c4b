import Foundation
import Travel411Core

/// An sRGB colour with opacity, as every backend takes it.
public struct MapColour: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: Double

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// "#rrggbb"; nil for anything else.
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    public func withAlpha(_ alpha: Double) -> MapColour { MapColour(red: red, green: green, blue: blue, alpha: alpha) }

    /// "#rrggbb", without the opacity.
    public var hex: String { String(format: "#%02x%02x%02x", red, green, blue) }

    public static let airportGreen = MapColour(red: 0x2e, green: 0x9e, blue: 0x44)
    public static let cityRed = MapColour(red: 0xd6, green: 0x27, blue: 0x28)
    public static let userBlue = MapColour(red: 0x1a, green: 0x73, blue: 0xe8)
    public static let pinPurple = MapColour(red: 0x7b, green: 0x3f, blue: 0xb5)
    public static let trackOrange = MapColour(red: 0xe6, green: 0x6a, blue: 0x00)
    public static let regionTeal = MapColour(red: 0x00, green: 0x89, blue: 0x7b)
    public static let black = MapColour(red: 0, green: 0, blue: 0)
    public static let white = MapColour(red: 0xff, green: 0xff, blue: 0xff)

    /// The colour of a destination pin of this colour name.
    public init(_ pin: PinColour) {
        switch pin {
        case .green: self = .airportGreen
        case .red: self = .cityRed
        }
    }
}

/// How a marker is drawn: a map pin standing on its point, a dot centred on it, or a small
/// square (an event on a track, such as entering or leaving a region).
public enum MarkerSymbol: String, Hashable, Sendable {
    case pin, dot, square
}

/// A marked point: a destination pin, a `--pin`, or an event on a track.
public struct MapMarker: Hashable, Sendable {
    public var coordinate: Coordinate
    public var title: String?
    public var colour: MapColour
    public var symbol: MarkerSymbol
    /// Shown as a callout when asked: the title first, then these lines.
    public var calloutLines: [String]
    /// One character for the terminal without colour ("A" airport, "C" city…).
    public var glyph: Character

    public init(
        coordinate: Coordinate, title: String?, colour: MapColour, symbol: MarkerSymbol = .pin,
        calloutLines: [String] = [], glyph: Character = "*"
    ) {
        self.coordinate = coordinate
        self.title = title
        self.colour = colour
        self.symbol = symbol
        self.calloutLines = calloutLines
        self.glyph = glyph
    }
}

/// The size of a circle: metres on the ground, or pixels whatever the scale (a magnitude symbol).
public enum CircleRadius: Hashable, Sendable {
    case metres(Double)
    case pixels(Double)
}

/// A filled circle: an earthquake sized by magnitude, a monitored region, an accuracy disc.
public struct MapCircle: Hashable, Sendable {
    public var centre: Coordinate
    public var radius: CircleRadius
    public var fill: MapColour?
    public var stroke: MapColour?
    public var label: String?
    /// A cross on the centre, and at least a few pixels across whatever the scale: a monitored region.
    public var marksCentre: Bool

    public init(
        centre: Coordinate, radius: CircleRadius, fill: MapColour?, stroke: MapColour? = nil, label: String? = nil,
        marksCentre: Bool = false
    ) {
        self.centre = centre
        self.radius = radius
        self.fill = fill
        self.stroke = stroke
        self.label = label
        self.marksCentre = marksCentre
    }
}

/// A line through coordinates: a track. Each step takes the short way round the globe.
public struct MapPolyline: Hashable, Sendable {
    public var coordinates: [Coordinate]
    public var colour: MapColour
    public var width: Double
    public var dashed: Bool

    public init(coordinates: [Coordinate], colour: MapColour = .trackOrange, width: Double = 3, dashed: Bool = false) {
        self.coordinates = coordinates
        self.colour = colour
        self.width = width
        self.dashed = dashed
    }
}

/// A key to the symbols: drawn in a box in the top-left corner.
public struct MapLegend: Hashable, Sendable {
    public enum Symbol: Hashable, Sendable {
        case circle(radius: Double, fill: MapColour)
        case line(MapColour)
        case marker(MapColour, MarkerSymbol)
    }

    public struct Entry: Hashable, Sendable {
        public var symbol: Symbol
        public var label: String
        public init(symbol: Symbol, label: String) {
            self.symbol = symbol
            self.label = label
        }
    }

    public var title: String?
    public var entries: [Entry]

    public init(title: String? = nil, entries: [Entry]) {
        self.title = title
        self.entries = entries
    }
}

/// Everything a map shows, in geographic coordinates. Nothing here knows about pixels: the layout
/// projects it for one output size, and every backend draws that same layout.
public struct MapScene: Sendable {
    /// What must be in view; the layout may widen it to the output's shape and shift it for callouts.
    public var region: MapRegion
    public var basemap: Basemap
    public var markers: [MapMarker]
    public var circles: [MapCircle]
    public var polylines: [MapPolyline]
    /// Indexes into `markers` whose callout is drawn.
    public var callouts: [Int]
    /// The user's location: a blue dot, or an arrow on the edge when it is out of view.
    public var me: Coordinate?
    public var legend: MapLegend?
    /// Attribution lines the data's licences require, besides the basemap's own.
    public var attribution: [String]
    /// Whether the layout may zoom out and move the view until every marker, its ring, its title and
    /// callout, and the user's dot when in view, lie inside the output: true for a region fitted to
    /// the markers, false for one the user chose (then only callouts move the view).
    public var fitsMarkers = false

    public init(
        region: MapRegion, basemap: Basemap = Basemap(), markers: [MapMarker] = [], circles: [MapCircle] = [],
        polylines: [MapPolyline] = [], callouts: [Int] = [], me: Coordinate? = nil, legend: MapLegend? = nil,
        attribution: [String] = []
    ) {
        self.region = region
        self.basemap = basemap
        self.markers = markers
        self.circles = circles
        self.polylines = polylines
        self.callouts = callouts
        self.me = me
        self.legend = legend
        self.attribution = attribution
    }

    /// Every licence line: the basemap's, then the scene's own, without repeats.
    public var attributionLines: [String] {
        var lines: [String] = []
        for line in basemap.attribution + attribution where !lines.contains(line) { lines.append(line) }
        return lines
    }
}
