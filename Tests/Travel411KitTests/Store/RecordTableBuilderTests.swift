import Foundation
import Testing

@testable import Travel411Store

/// The area levels' texts as a batch reads them (`RecordTableBuilder` fed by `SQLiteStatement.withStringBytes`): the
/// very bytes `RecordTable.build` makes of the rows' `stringValue`s, for ASCII, other UTF-8, numbers, NULL, a blob
/// and an empty text, so that no answer moves.
struct RecordTableBuilderTests {
    @Test func builderMatchesBuildOfTheRowsStrings() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (a, b, c)")
        let rows: [[SQLValue]] = [
            [.text("Île-de-France"), .text("FR-IDF"), .null],
            [.text(""), .integer(-42), .real(2.5)],
            [.blob([1, 2, 3]), .text("Zürich"), .text("plain ascii")],
            [.text("東京都"), .null, .integer(7)],
        ]
        let insert = try database.prepare("INSERT INTO t VALUES (?, ?, ?)")
        for row in rows { try insert.run(row) }
        let read = try database.query("SELECT a, b, c FROM t ORDER BY rowid")
        let expected = RecordTable.build(coordinates: nil, fields: read.map { $0.map(\.stringValue) }, fieldCount: 3)
        let statement = try database.prepare("SELECT a, b, c FROM t ORDER BY rowid")
        var builder = RecordTableBuilder(fieldCount: 3)
        while try statement.step() {
            for column in 0..<Int32(3) { statement.withStringBytes(column) { builder.append($0) } }
        }
        #expect(builder.bytes() == expected)
        #expect(RecordTableBuilder(fieldCount: 3).bytes() == RecordTable.build(coordinates: nil, fields: [], fieldCount: 3))
    }
}
