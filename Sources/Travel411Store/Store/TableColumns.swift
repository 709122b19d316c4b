/// A database that answers SQL: the writer's connection (`SQLiteDatabase`) and the lookups' reader
/// (`SharedDatabaseReader`), so that what is asked of a table's shape is written once.
package protocol SQLQuerying {
    func query(_ sql: String, _ values: [SQLValue]) throws -> [[SQLValue]]
}

extension SQLQuerying {
    /// The names of `table`'s columns as declared (`pragma_table_info`); empty when there is no such table. Layers
    /// written by earlier lookup tables lack columns added since (a places layer's `capital`, lookup tables 24).
    package func columnNames(of table: String) throws -> Set<String> {
        Set(try query("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0.first?.stringValue })
    }
}

extension SQLiteDatabase: SQLQuerying {}
extension SharedDatabaseReader: SQLQuerying {}
