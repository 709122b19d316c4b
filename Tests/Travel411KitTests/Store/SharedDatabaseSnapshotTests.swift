import Foundation
import XCTest

@testable import Travel411Store

/// A batch reads its pages from one snapshot of the database (`SharedDatabaseReader.readingOneSnapshot`): one read
/// transaction for the run, so that a writer changing the file in place waits until the run ends, and the run's
/// pages never mix two versions of the file.
final class SharedDatabaseSnapshotTests: XCTestCase {
    private func database(in testCase: XCTestCase) throws -> (path: String, writer: SQLiteDatabase) {
        let path = try makeTemporaryDirectory(testCase).appendingPathComponent("pages.sqlite").path
        let writer = try SQLiteDatabase(path: path)
        try writer.execute("CREATE TABLE pages (key INTEGER PRIMARY KEY, blob BLOB); INSERT INTO pages VALUES (1, x'0102'), (2, x'0304')")
        return (path, writer)
    }

    private func bytes(_ blob: BlobStorage?) -> [UInt8]? {
        blob.map { Array(UnsafeRawBufferPointer(start: $0.base, count: $0.count)) }
    }

    func testAWriterWaitsUntilTheSnapshotEnds() throws {
        let (path, writer) = try database(in: self)
        let reader = try SharedDatabaseReader(path: path)
        try reader.readingOneSnapshot {
            XCTAssertEqual(bytes(reader.blob(table: "pages", column: "blob", rowID: 1)), [1, 2])
            XCTAssertThrowsError(try writer.execute("UPDATE pages SET blob = x'09' WHERE key = 2"))
            XCTAssertEqual(bytes(reader.blob(table: "pages", column: "blob", rowID: 2)), [3, 4])
        }
        try writer.execute("UPDATE pages SET blob = x'09' WHERE key = 2")
        XCTAssertEqual(bytes(reader.blob(table: "pages", column: "blob", rowID: 2)), [9])
    }

    func testOverlappingSnapshotsShareOneTransactionEndedByTheLast() throws {
        let (path, writer) = try database(in: self)
        let reader = try SharedDatabaseReader(path: path)
        try reader.readingOneSnapshot {
            _ = reader.blob(table: "pages", column: "blob", rowID: 1)
            try reader.readingOneSnapshot { XCTAssertEqual(bytes(reader.blob(table: "pages", column: "blob", rowID: 2)), [3, 4]) }
            XCTAssertThrowsError(try writer.execute("UPDATE pages SET blob = x'09' WHERE key = 2"))
        }
        try writer.execute("UPDATE pages SET blob = x'09' WHERE key = 2")
    }

    func testTheSnapshotEndsWhenItsBodyThrows() throws {
        struct Stop: Error {}
        let (path, writer) = try database(in: self)
        let reader = try SharedDatabaseReader(path: path)
        XCTAssertThrowsError(
            try reader.readingOneSnapshot {
                _ = reader.blob(table: "pages", column: "blob", rowID: 1)
                throw Stop()
            })
        try writer.execute("UPDATE pages SET blob = x'09' WHERE key = 1")
        XCTAssertEqual(bytes(reader.blob(table: "pages", column: "blob", rowID: 1)), [9])
    }
}
