/// Which lookup tables a places database holds, as its `travel411_metadata` says: one row, read before
/// anything else so that tables of another shape are never misread.
package enum LookupTablesStamp: Equatable {
    /// No travel411_metadata table: not a travel411 places database at all.
    case absent
    /// The `lookup_schema_version` row; nil when there is none (built before the row existed).
    case version(String?)

    package static func read(from database: SQLiteDatabase) throws -> LookupTablesStamp {
        guard try database.tableExists("travel411_metadata") else { return .absent }
        return .version(
            try database.query(
                "SELECT value FROM travel411_metadata WHERE key = 'lookup_schema_version'"
            ).first?.first?.stringValue)
    }

    var isCurrent: Bool { self == .version(PlacesSchema.version) }
}
