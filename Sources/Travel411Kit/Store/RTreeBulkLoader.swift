import Foundation

/// Fills an empty SQLite R-tree virtual table with many entries at once.
enum RTreeBulkLoader {
    static func load(_ entries: RTreeEntries, into rtreeTable: String, database: SQLiteDatabase) throws {
        let insert = try database.prepare(
            "INSERT INTO \(GeoPackageSchema.quoted(rtreeTable)) (id, minx, maxx, miny, maxy) VALUES (?, ?, ?, ?, ?)")
        let coordinates = entries.coordinates
        for (index, id) in entries.ids.enumerated() {
            try insert.bind(.integer(id), at: 1)
            for axis in 0..<4 { try insert.bind(.real(Double(coordinates[index * 4 + axis])), at: Int32(axis + 2)) }
            try insert.step()
            insert.reset()
        }
    }
}
