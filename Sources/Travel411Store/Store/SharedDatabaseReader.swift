import Synchronization

/// One read-only connection to a places database, shared by every thread of a lookup for the pages they
/// read when first touched. Reads are rare (once per page per process) and short, so one lock is enough.
///
/// For pages read one by one, SQLite reads the file through a memory map, so that processes answering
/// from one file (several `travel411 serve` replicas) share its pages in the kernel's page cache instead
/// of copying them each into SQLite's own cache.
package final class SharedDatabaseReader: Sendable {
    let path: String
    private let connection: Mutex<SQLiteDatabase>
    /// The first damaged structure a lookup met (a page whose size does not match its header, say): the
    /// lookup goes on without it, and `ReverseGeocoder.checkIndex` reports it.
    private let damage = Mutex<String?>(nil)
    /// How many `readingOneSnapshot` calls are running; taken before `connection`, never after it.
    private let snapshots = Mutex(0)

    /// SQLite's largest memory map unless compiled otherwise (SQLITE_MAX_MMAP_SIZE, 0x7fff0000).
    static let mmapBytes = 0x7fff_0000

    /// `mapped`: read through a memory map. Not for reading whole levels up front (a batch's start-up):
    /// the mapped pages would count as the process's memory on top of the copies made of them (40 MB
    /// more peak for a batch on Data/).
    package init(path: String, mapped: Bool = true) throws {
        self.path = path
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        // A single lookup reads a handful of pages once: a big page cache would only hold second copies.
        try database.execute("PRAGMA cache_size = -256; PRAGMA mmap_size = \(mapped ? Self.mmapBytes : 0)")
        connection = Mutex(database)
    }

    /// One blob, copied into memory of its own; nil when the row is missing.
    package func blob(table: String, column: String, rowID: Int64) -> BlobStorage? {
        connection.withLock { $0.blobStorage(table: table, column: column, rowID: rowID) }
    }

    /// One lookup page or area tile of `table`, inflated (`PageCompression`); nil when the row is missing, or
    /// damaged, which is noted with `name` ("street tile 12").
    package func page(table: String, rowID: Int64, name: @autoclosure () -> String) -> BlobStorage? {
        guard let blob = blob(table: table, column: "blob", rowID: rowID) else { return nil }
        do { return try PageCompression.page(UnsafeRawBufferPointer(start: blob.base, count: blob.count)) } catch {
            noteDamage("\(IndexFormatError.damage(in: error)) of \(name())")
            return nil
        }
    }

    /// `body`, with every page it reads taken from one snapshot of the file: one read transaction (SQLite's shared lock,
    /// held until `body` returns) instead of one per page, each of which locked and unlocked the file and looked for a
    /// hot journal: 121,000 `fcntl` and `stat` calls for a batch of 2,000 points read on demand. For a run that ends (a
    /// batch), not a server: a writer changing the file in place waits until it does; travel411 replaces a database whole.
    /// Snapshots that overlap (two threads' batches through one library geocoder) share one transaction, ended by the last.
    package func readingOneSnapshot<R>(_ body: () throws -> R) throws -> R {
        try snapshots.withLock { depth in
            if depth == 0 { try connection.withLock { try $0.execute("BEGIN") } }
            depth += 1
        }
        defer {
            snapshots.withLock { depth in
                depth -= 1
                if depth == 0 { try? connection.withLock { try $0.execute("COMMIT") } }
            }
        }
        return try body()
    }

    /// Remembers that a structure read from the file is damaged; the first one is reported.
    package func noteDamage(_ what: String) {
        damage.withLock { if $0 == nil { $0 = what } }
    }

    package var firstDamage: String? { damage.withLock { $0 } }

    /// `body` with the connection to itself, for reads of many rows.
    package func withDatabase<R>(_ body: (SQLiteDatabase) throws -> sending R) throws -> sending R {
        try connection.withLock { database throws -> sending R in try body(database) }
    }

    package func query(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        try connection.withLock { try $0.query(sql, values) }
    }
}
