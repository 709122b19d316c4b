import Foundation
import Travel411Core
import Travel411Geocoder

/// What a basemap layer is, which decides how it is drawn.
public enum BasemapLayerKind: String, Hashable, Sendable, CaseIterable {
    /// Countries: land filled, outlines as coasts and borders.
    case land
    case lake
    /// First-level divisions (states, English regions): dashed outlines.
    case admin
    /// Districts (the London boroughs): thin outlines.
    case district
    case street
}

/// Shapes of one kind in (longitude, latitude).
public struct BasemapLayer: Sendable {
    public var kind: BasemapLayerKind
    public var shapes: [Shape]

    public init(kind: BasemapLayerKind, shapes: [Shape]) {
        self.kind = kind
        self.shapes = shapes
    }
}

public enum BasemapLabelKind: String, Hashable, Sendable {
    case country, sea, locality, district, street
}

/// A name to set on the map if there is room. Higher `rank` is placed first.
public struct BasemapLabel: Sendable {
    public var text: String
    public var coordinate: Coordinate
    public var kind: BasemapLabelKind
    public var rank: Double
    /// For a street: the stretch to set the name along.
    public var along: (Coordinate, Coordinate)?

    public init(text: String, coordinate: Coordinate, kind: BasemapLabelKind, rank: Double, along: (Coordinate, Coordinate)? = nil) {
        self.text = text
        self.coordinate = coordinate
        self.kind = kind
        self.rank = rank
        self.along = along
    }
}

/// The background of a map: layers and labels read from the places database, and the attribution
/// lines the licences of what was read require.
public struct Basemap: Sendable {
    public var layers: [BasemapLayer]
    public var labels: [BasemapLabel]
    public var attribution: [String]
    /// What the map must say about its own data, such as that the database has no streets here.
    public var notes: [String]
    /// Places beyond the view, named at its edge with their direction when the view holds none.
    public var nearby: [BasemapLabel]

    public init(
        layers: [BasemapLayer] = [], labels: [BasemapLabel] = [], attribution: [String] = [], notes: [String] = [],
        nearby: [BasemapLabel] = []
    ) {
        self.layers = layers
        self.labels = labels
        self.attribution = attribution
        self.notes = notes
        self.nearby = nearby
    }
}

/// Which layers a view shows, from how much of the world it covers: the coarse Natural Earth
/// outlines for continents, the fine ones for a country, boroughs and streets for a city.
public struct BasemapDetail: Hashable, Sendable {
    public var countryOutline: OutlineDetail
    public var showsAdmin: Bool
    public var showsLakes: Bool
    public var showsDistricts: Bool
    public var showsDistrictNames: Bool
    public var showsStreets: Bool
    public var showsStreetNames: Bool
    public var showsCountryNames: Bool
    public var showsSeaNames: Bool

    public init(longitudeSpan: Double, metresPerPixel: Double) {
        countryOutline = longitudeSpan > 60 ? .coarsest : longitudeSpan > 6 ? .coarse : .full
        showsAdmin = longitudeSpan <= 45
        showsLakes = longitudeSpan <= 90
        showsDistricts = longitudeSpan <= 3
        showsDistrictNames = longitudeSpan <= 1.2 && metresPerPixel > 4
        // A town 5 km across on a 1024-pixel map (Vaduz: about 10 m per pixel) shows its streets, as web maps do
        // from zoom 13; drawing them cost 0.1 s there.
        showsStreets = metresPerPixel <= 16
        showsStreetNames = metresPerPixel <= 4
        showsCountryNames = longitudeSpan >= 2.5
        showsSeaNames = longitudeSpan >= 1
    }
}
