import Foundation

/// `travel411_osm_names`: the `name:xx` tags of every OpenStreetMap object that can name a field of an answer
/// (streets, addresses and POIs, places, boundaries), by element (`W123`), for those that have any. A server
/// answering in another language reads one row per named object instead of scanning the feature tables.
/// Optional: a database without it (imported before it existed, or from shapefiles only) answers in `name`.
///
/// A boundary takes the translations it lacks from the place node of the same name inside it, as Nominatim's
/// linked places do (Vaduz's relation has no `name:ru`; its node has). Extracts list nodes before ways and
/// relations, so the nodes are known when a boundary comes.
struct OSMNamesTable {
    static let tableName = "travel411_osm_names"
    static let createStatement = "CREATE TABLE IF NOT EXISTS \(tableName) (element TEXT PRIMARY KEY, names TEXT NOT NULL) WITHOUT ROWID"

    private let insert: SQLiteStatement
    /// Place nodes with translations, by name, for the boundaries that link them; their names kept encoded
    /// (a country's extract has tens of thousands).
    private var placeNodes: [String: [(point: Point2D, names: String)]] = [:]

    init(database: SQLiteDatabase) throws {
        try database.execute(Self.createStatement)
        // One element can give several features (a shop with an address): its tags, and so its names, are the same.
        insert = try database.prepare("INSERT OR IGNORE INTO \(Self.tableName) (element, names) VALUES (?, ?)")
    }

    mutating func record(_ feature: OSMFeature) throws {
        guard Self.namesAnswers(feature.kind) else { return }
        var names = feature.names
        if feature.kind == .place, feature.element.type == .node, let name = feature.name, !names.isEmpty {
            placeNodes[name, default: []].append((feature.representativePoint, OSMNameList.encoded(names)))
        }
        if feature.kind == .adminBoundary, let name = feature.name,
            let node = placeNodes[name]?.first(where: { feature.shape.contains(x: $0.point.x, y: $0.point.y) })
        {
            names.merge(OSMNameList.decoded(node.names)) { own, _ in own }
        }
        guard !names.isEmpty else { return }
        try insert.run([.text(OSMLevelMapping.elementText(feature.element)), .text(OSMNameList.encoded(names))])
    }

    /// The kinds an answer names: not postcodes (a code has no language) nor interpolation lines (never answering).
    private static func namesAnswers(_ kind: OSMFeatureKind) -> Bool {
        switch kind {
        case .street, .address, .poi, .place, .adminBoundary: return true
        case .addressInterpolation, .postcodeBoundary, .postcodePoint: return false
        }
    }
}

/// The `name:xx` tags as the feature tables' `names` column and `travel411_osm_names` keep them: one
/// `xx=name` line each, by language.
enum OSMNameList {
    static func encoded(_ names: [String: String]) -> String {
        names.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.oneLine($0.value))" }.joined(separator: "\n")
    }

    static func decoded(_ text: String) -> [String: String] {
        var names: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "="), equals != line.startIndex else { continue }
            let value = line[line.index(after: equals)...]
            if !value.isEmpty { names[String(line[..<equals])] = String(value) }
        }
        return names
    }

    /// A line break inside a value would start a line of its own.
    private static func oneLine(_ value: String) -> String {
        value.contains("\n") ? value.replacingOccurrences(of: "\n", with: " ") : value
    }
}
