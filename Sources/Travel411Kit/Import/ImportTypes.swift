import Foundation

public struct ImportOptions: Sendable {
    public var paths: [URL]
    public var databasePath: String
    /// How to read a layout the importer does not recognise.
    public var level: PlaceLevel?
    public var nameField: String?

    public init(paths: [URL], databasePath: String, level: PlaceLevel? = nil, nameField: String? = nil) {
        self.paths = paths
        self.databasePath = databasePath
        self.level = level
        self.nameField = nameField
    }
}

/// What one shapefile contributed.
public struct ImportedLayer: Sendable {
    public var path: String
    public var table: String
    public var layout: String
    public var level: PlaceLevel
    public var features: Int
    public var skipped: Int
    /// Why records were skipped, with how many each.
    public var skipReasons: [String: Int]
    public var seconds: Double
}

public struct ImportSummary: Sendable {
    public var databasePath: String
    public var layers: [ImportedLayer]
    public var warnings: [String]
    public var seconds: Double
    /// Overseas parts of a country polygon indexed as their own ISO 3166-1 territory ("French Guiana
    /// (GF), from parts of France"), told apart by tzdata's zone.tab.
    public var territories: [String] = []
    /// Admin-1 polygons whose label their own localities contradict (GeoNames admin1), which answer
    /// with the localities' name instead.
    public var contradictedLabels: [String] = []

    public var featureCount: Int { layers.reduce(0) { $0 + $1.features } }
    public var skippedCount: Int { layers.reduce(0) { $0 + $1.skipped } }
}

/// Progress of a long import, for a progress bar.
public struct ImportProgress: Sendable {
    public var stage: String
    public var completed: Int
    public var total: Int
}
