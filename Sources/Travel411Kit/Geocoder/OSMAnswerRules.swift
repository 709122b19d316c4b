import Foundation

/// How a database imported from OpenStreetMap extracts answers, where Nominatim's rules differ from those
/// made for the embedded data (docs/osm.md): the nearest object, a street or an address, answers; streets
/// and postcode points count as far as Nominatim looks for them. The import records the rules
/// in travel411_metadata; a database without that entry (the embedded data's) answers as before.
///
/// The rules hold where the extracts are (`coverage`, each extract's extent as the import recorded it, and as far
/// beyond as Nominatim looks for a street): Helsinki's extract beside the embedded data leaves every answer in
/// London as it was, postcodes from 200 m, not 5 km, and as fast.
struct OSMAnswerRules: Sendable, Equatable {
    static let metadataKey = "osm_answer_rules"
    /// The entry's value: the Nominatim whose rules these follow.
    static let metadataValue = "nominatim-5.3"
    /// The entry of the extracts' extents: `minX minY maxX maxY` each, separated by `;`.
    static let coverageKey = "osm_coverage"
    /// Nominatim looks for a street's postcode within ± 5 km (its default postcode extent): OpenStreetMap's
    /// postcode points are the means of the addresses carrying each postcode, a few per town, not one per
    /// block as Code-Point's.
    static let postcodeRadius = 5000.0

    /// Nominatim answers the nearest street within 0.006° of the point: 670 m north-south, 450 m east-west at
    /// 47° N, 330 m at 60° N. One radius in metres for every direction and latitude: 500 m.
    static let thoroughfareRadius = 500.0

    var postcodeRadiusMetres = OSMAnswerRules.postcodeRadius
    var thoroughfareRadiusMetres = OSMAnswerRules.thoroughfareRadius
    /// The extracts' extents, widened by Nominatim's reach.
    var coverage: [BoundingBox] = []

    /// Whether the rules hold at `point`.
    @inline(__always) func covers(_ point: Coordinate) -> Bool {
        coverage.contains { $0.contains(x: point.longitude, y: point.latitude) }
    }

    static func coverageText(_ extents: [BoundingBox]) -> String {
        extents.map { "\($0.minX) \($0.minY) \($0.maxX) \($0.maxY)" }.joined(separator: ";")
    }

    static func coverage(fromText text: String) -> [BoundingBox] {
        let reach = ReverseGeocoder.nominatimSearchDegrees
        return text.split(separator: ";").compactMap { box in
            let values = box.split(separator: " ").compactMap { Double($0) }
            guard values.count == 4 else { return nil }
            return BoundingBox(minX: values[0] - reach, minY: values[1] - reach, maxX: values[2] + reach, maxY: values[3] + reach)
        }
    }

    /// The rules the database at `databasePath` records, nil for none (or an unreadable database: opening
    /// it for lookups then says what is wrong).
    static func read(databasePath: String) -> OSMAnswerRules? {
        guard let database = try? SQLiteDatabase(path: databasePath, mode: .readOnly),
            (try? database.tableExists("travel411_metadata")) == true,
            let rows = try? database.query("SELECT value FROM travel411_metadata WHERE key = ?", [.text(metadataKey)]),
            rows.first?.first?.stringValue != nil
        else { return nil }
        var rules = OSMAnswerRules()
        let coverage = try? database.query("SELECT value FROM travel411_metadata WHERE key = ?", [.text(coverageKey)])
        rules.coverage = coverage?.first?.first?.stringValue.map(Self.coverage(fromText:)) ?? []
        return rules
    }
}
