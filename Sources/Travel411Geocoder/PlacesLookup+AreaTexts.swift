import Travel411Store

extension PlacesLookup {
    /// Every polygon's texts of an area level (`AreaText`'s columns, as `sql` selects them for `level`), read from the
    /// rows straight into a record table: read first as rows of values and then as strings, they were an eighth of a
    /// batch's start-up.
    static func areaTexts(_ level: PlacesSchema.AreaLevel, sql: String, from database: SQLiteDatabase) throws -> RecordTable {
        let statement = try database.prepare(sql)
        try statement.bind([.text(level.rawValue)])
        let fieldCount = AreaText.allCases.count
        var builder = RecordTableBuilder(fieldCount: fieldCount)
        while try statement.step() {
            for column in 0..<Int32(fieldCount) { statement.withStringBytes(column) { builder.append($0) } }
        }
        return try RecordTable(storage: BlobStorage(bytes: builder.bytes()))
    }
}
