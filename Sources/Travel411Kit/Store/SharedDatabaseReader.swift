import Synchronization

/// One read-only connection to a places database, shared by every thread of a lookup for the pages they
/// read when first touched. Reads are rare (once per page per process) and short, so one lock is enough.
///
/// SQLite reads the file through a memory map, so that processes answering from one file (several
/// `travel411 serve` replicas) share its pages in the kernel's page cache instead of copying them each.
final class SharedDatabaseReader: Sendable {
    let path: String
    private let connection: Mutex<SQLiteDatabase>

    /// SQLite's largest memory map unless compiled otherwise (SQLITE_MAX_MMAP_SIZE, 0x7fff0000).
    static let mmapBytes = 0x7fff_0000

    init(path: String) throws {
        self.path = path
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        // A single lookup reads a handful of pages once: a big page cache would only hold second copies.
        try database.execute("PRAGMA cache_size = -256; PRAGMA mmap_size = \(Self.mmapBytes)")
        connection = Mutex(database)
    }

    /// One blob, copied into memory of its own; nil when the row is missing.
    func blob(table: String, column: String, rowID: Int64) -> BlobStorage? {
        connection.withLock { $0.blobStorage(table: table, column: column, rowID: rowID) }
    }

    /// `body` with the connection to itself, for reads of many rows.
    func withDatabase<R>(_ body: (SQLiteDatabase) throws -> sending R) throws -> sending R {
        try connection.withLock { database throws -> sending R in try body(database) }
    }

    func query(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        try connection.withLock { try $0.query(sql, values) }
    }
}
