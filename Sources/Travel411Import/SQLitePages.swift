import Foundation
import Travel411Store
import Travel411StoreWriters

/// Pages of `travel411_pages` read back through the import's own connection, which alone sees them before the
/// import commits, and inflated on the caller's thread.
// @unchecked Sendable: the connection is read under `lock`, by the threads that search the objects' nearest streets
// (`ObjectNearestStreets.Search`); the import's thread, its only other user, is one of them until they are all done
// (`DispatchQueue.concurrentPerform`), so no write comes between.
final class SQLitePages: @unchecked Sendable {
    private let database: SQLiteDatabase
    private let lock = NSLock()

    init(database: SQLiteDatabase) { self.database = database }

    func blob(key: Int64) -> BlobStorage? {
        let stored = lock.withLock { database.blobStorage(table: "travel411_pages", column: "blob", rowID: key) }
        guard let stored else { return nil }
        return try? PageCompression.page(UnsafeRawBufferPointer(start: stored.base, count: stored.count))
    }
}
