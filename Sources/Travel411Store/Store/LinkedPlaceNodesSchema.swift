import Foundation

/// `travel411_linked_place_nodes`: the place nodes finer than a suburb (a quarter, a neighbourhood, a locality), and
/// the town, village and hamlet nodes (`subpartTypes`), that a boundary links to (`OSMLinkedPlaces`). Nominatim 5.3 gives a linked node a `linked_place_id` and leaves it out of
/// every address and reverse search (`nominatim_api/reverse.py`: `linked_place_id == None`); the boundary answers
/// in its stead. Optional: a database without it links none.
package enum LinkedPlaceNodesSchema {
    package static let tableName = "travel411_linked_place_nodes"
    /// The place kinds finer than a suburb and hamlet, whose nodes answer at zooms 14-15 and name quarters and
    /// neighbourhoods in addresses (`FinePlaceNodes`, `NeighbourhoodNodes`): every `place` kind of search rank 20-25 in
    /// Nominatim 5.3's settings/address-levels.json but the hamlet (a subpart), a square (Munich's Reichenbachplatz, 25,
    /// answers its old town at zoom 15 before the neighbourhoods, 24) and an islet among them.
    package static let fineTypes: Set<String> = [
        "quarter", "croft", "islet", "isolated_dwelling", "farm", "subdivision", "allotments", "neighbourhood", "city_block",
        "locality", "square", "mountain_pass",
    ]
    /// The coarser kinds whose linked nodes the table also lists: a town, village or hamlet node inside a boundary
    /// answers where the import made it no area (`FinePlaceNodes.subpartTypes`), unless the boundary links it.
    package static let subpartTypes: Set<String> = ["town", "village", "hamlet"]
    package static let createStatement = "CREATE TABLE IF NOT EXISTS \(tableName) (osm_id INTEGER PRIMARY KEY)"
    /// Whether the database has the table (an extract imported before it existed has not).
    package static func isPresent(in reader: SharedDatabaseReader) throws -> Bool {
        try !reader.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(tableName)]).isEmpty
    }

    /// The condition leaving a linked node out of a query of a place layer aliased `p`, when the table is present.
    package static func unlinkedCondition(present: Bool) -> String {
        present ? " AND p.osm_id NOT IN (SELECT osm_id FROM \(tableName))" : ""
    }
}
