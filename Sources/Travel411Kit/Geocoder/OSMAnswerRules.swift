import Foundation

/// How a database imported from OpenStreetMap extracts answers, where Nominatim's rules differ from those
/// made for the embedded data (docs/osm.md): the nearest object, a street or an address, answers; a
/// postcode is the nearest postcode point as far as Nominatim looks for one. The import records the rules
/// in travel411_metadata; a database without that entry (the embedded data's) answers as before.
struct OSMAnswerRules: Sendable, Equatable {
    static let metadataKey = "osm_answer_rules"
    /// Nominatim looks for a street's postcode within ± 5 km (its default postcode extent): OpenStreetMap's
    /// postcode points are the means of the addresses carrying each postcode, a few per town, not one per
    /// block as Code-Point's.
    static let postcodeRadius = 5000.0

    var postcodeRadiusMetres = OSMAnswerRules.postcodeRadius

    /// The rules the database at `databasePath` records, nil for none (or an unreadable database: opening
    /// it for lookups then says what is wrong).
    static func read(databasePath: String) -> OSMAnswerRules? {
        guard let database = try? SQLiteDatabase(path: databasePath, mode: .readOnly),
            (try? database.tableExists("travel411_metadata")) == true,
            let rows = try? database.query("SELECT value FROM travel411_metadata WHERE key = ?", [.text(metadataKey)]),
            let value = rows.first?.first?.stringValue
        else { return nil }
        return OSMAnswerRules(postcodeRadiusMetres: Double(value) ?? postcodeRadius)
    }
}
