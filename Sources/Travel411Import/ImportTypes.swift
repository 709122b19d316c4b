import Foundation
import Travel411Core
import Travel411OSM
import Travel411Store

public struct ImportOptions: Sendable {
    public var paths: [URL]
    public var databasePath: String
    /// How to read a layout the importer does not recognise.
    public var level: PlaceLevel?
    public var nameField: String?
    /// `--level FILE=LEVEL` and `--name-field FILE=FIELD`: what one file holds, whatever the others do.
    public var fileLevels: [FileOption<PlaceLevel>] = []
    public var fileNameFields: [FileOption<String>] = []
    /// Adds the paths to the sources the database was built from (`import --append`), rebuilding it
    /// from all of them.
    public var append = false
    /// `import --nodes-file`: a new file for the extracts' node locations (`OSMExtractReader.nodesFile`).
    public var nodesFile: String?
    /// `import --layers`: which of an extract's feature layers the GeoPackage keeps; nil: all of them, or with
    /// `append`, those the database kept.
    public var featureLayers: FeatureLayers?
    /// What reads OpenStreetMap extracts: `.libosmium` (Travel411OSMReader). Nil: the import reads shapefiles only,
    /// and refuses an extract, before writing anything, with `ExtractReaderMissing`.
    public var extractReader: (any OSMExtractReading)?

    public init(
        paths: [URL], databasePath: String, level: PlaceLevel? = nil, nameField: String? = nil,
        extractReader: (any OSMExtractReading)? = nil
    ) {
        self.paths = paths
        self.extractReader = extractReader
        self.databasePath = databasePath
        self.level = level
        self.nameField = nameField
    }

    /// The level given for this file, else the one given for every unrecognised file.
    package func level(for url: URL) -> PlaceLevel? {
        fileLevels.first { $0.names(url) }?.value ?? level
    }

    package func nameField(for url: URL) -> String? {
        fileNameFields.first { $0.names(url) }?.value ?? nameField
    }
}

/// An option given for one input file, `FILE=VALUE`: FILE is the path as given, or the file's name with or
/// without its extension (`--level roads.shp=thoroughfare`, `--level roads=thoroughfare`).
public struct FileOption<Value: Sendable>: Sendable {
    public var file: String
    public var value: Value

    public init(file: String, value: Value) {
        self.file = file
        self.value = value
    }

    package func names(_ url: URL) -> Bool {
        if URL(fileURLWithPath: file).standardizedFileURL.path == url.standardizedFileURL.path { return true }
        let name = url.lastPathComponent
        if file == name { return true }
        var stem = name
        while let dot = stem.lastIndex(of: "."), dot != stem.startIndex {
            stem = String(stem[..<dot])
            if file == stem { return true }
        }
        return false
    }

    /// Splits `FILE=VALUE` at its last `=`; nil when there is none (the value is for every file).
    public static func split(_ argument: String) -> (file: String, value: String)? {
        guard let equals = argument.lastIndex(of: "="), equals != argument.startIndex else { return nil }
        let value = argument[argument.index(after: equals)...]
        guard !value.isEmpty else { return nil }
        return (String(argument[..<equals]), String(value))
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

/// An import of OpenStreetMap extracts by a program built without their reader (`ImportOptions.extractReader`):
/// `travel411` hands such an import to `travel411-tools`.
public struct ExtractReaderMissing: Travel411Error {
    public let extracts: [URL]
    public var exitStatus: ExitStatus { .unavailable }
    public var description: String {
        "\(extracts.map(\.lastPathComponent).joined(separator: ", ")): this program reads no OpenStreetMap extracts (travel411-tools does)"
    }
}
