import CSQLite
import Foundation
import Travel411Core

/// An error from SQLite, carrying the database file so the user knows which one is at fault.
public struct SQLiteError: Error, CustomStringConvertible, LocalizedError {
    public let code: Int32
    public let message: String
    public let path: String

    public init(code: Int32, message: String, path: String) {
        self.code = code
        self.message = message
        self.path = path
    }

    public var description: String { "\(path): \(message) (SQLite code \(code))" }
    public var errorDescription: String? { description }
}

/// A value to bind to or read from a statement.
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

// SQLite's SQLITE_TRANSIENT is a macro Swift cannot import; it tells SQLite to copy bound buffers.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A thin owner of one sqlite3 connection. Not thread-safe: give each thread its own.
public final class SQLiteDatabase {
    public enum OpenMode { case readOnly, readWrite, readWriteCreate }

    public let path: String
    let handle: OpaquePointer

    /// Configured once, before the first connection opens (`travel411_sqlite3_turn_off_memory_statistics`).
    private static let configured: Void = { _ = travel411_sqlite3_turn_off_memory_statistics() }()

    public init(path: String, mode: OpenMode = .readWriteCreate) throws {
        self.path = path
        // SQLite says only "disk I/O error" of a folder (`--db ~/maps` for a file in it).
        if FileManager.default.isFolder(atPath: path) {
            throw UserFacingError("\(path) is a folder, not a database file", exitStatus: .usage)
        }
        _ = Self.configured
        var flags: Int32 = SQLITE_OPEN_NOMUTEX
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message, path: path)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), path: path)
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? "error"
            sqlite3_free(errorMessage)
            throw SQLiteError(code: rc, message: message, path: path)
        }
    }

    public func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc) }
        return SQLiteStatement(database: self, handle: statement)
    }

    /// Runs `sql` with `values` bound, and returns every row as an array of values.
    public func query(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var rows: [[SQLValue]] = []
        while try statement.step() { rows.append(statement.row()) }
        return rows
    }

    /// Runs `sql` with `values` bound, ignoring any rows.
    public func run(_ sql: String, _ values: [SQLValue] = []) throws {
        let statement = try prepare(sql)
        try statement.bind(values)
        while try statement.step() {}
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    public func setBusyTimeout(milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

    /// Runs `body` inside BEGIN IMMEDIATE … COMMIT; any error rolls everything back.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Reads one blob with SQLite's incremental I/O straight into memory of our own, so a large blob
    /// is never held twice (once by SQLite, once by us). Nil when the row is missing or the value NULL.
    package func blobStorage(table: String, column: String, rowID: Int64) -> BlobStorage? {
        var blob: OpaquePointer?
        guard sqlite3_blob_open(handle, "main", table, column, rowID, 0, &blob) == SQLITE_OK, let blob else {
            if let blob { sqlite3_blob_close(blob) }
            return nil
        }
        defer { sqlite3_blob_close(blob) }
        let count = Int(sqlite3_blob_bytes(blob))
        return try? BlobStorage(count: count) { buffer in
            guard sqlite3_blob_read(blob, buffer, Int32(count), 0) == SQLITE_OK else { throw error(SQLITE_IOERR) }
        }
    }

    /// Whether a table or view of that name exists.
    public func tableExists(_ name: String) throws -> Bool {
        try !query("SELECT 1 FROM sqlite_master WHERE name = ?", [.text(name)]).isEmpty
    }
}

/// A prepared statement. Reuse it with `reset()` for bulk inserts.
public final class SQLiteStatement {
    package let database: SQLiteDatabase
    let handle: OpaquePointer

    package init(database: SQLiteDatabase, handle: OpaquePointer) {
        self.database = database
        self.handle = handle
    }

    deinit { sqlite3_finalize(handle) }

    /// An index loop: the first answer's import of Data/ binds every feature's values through an unoptimised
    /// build of this module, where `enumerated()`'s generic iterator cost more than the binding.
    public func bind(_ values: [SQLValue]) throws {
        for offset in values.indices { try bind(values[offset], at: Int32(offset + 1)) }
    }

    public func bind(_ value: SQLValue, at index: Int32) throws {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let v): rc = sqlite3_bind_text(handle, index, v, -1, transientDestructor)
        case .blob(let bytes):
            rc = bytes.withUnsafeBytes { raw in
                sqlite3_bind_blob(handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), transientDestructor)
            }
        }
        guard rc == SQLITE_OK else { throw database.error(rc) }
    }

    /// Binds a blob that SQLite reads in place instead of copying (SQLITE_STATIC): the fast path for
    /// bulk inserts. `raw` must stay valid and unchanged until the statement has been stepped and reset.
    public func bindBlobWithoutCopy(_ raw: UnsafeRawBufferPointer, at index: Int32) throws {
        let rc = sqlite3_bind_blob(handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), nil)
        guard rc == SQLITE_OK else { throw database.error(rc) }
    }

    /// Advances to the next row; false when done.
    @discardableResult
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(rc)
        }
    }

    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds, runs to completion and resets: one insert or update.
    public func run(_ values: [SQLValue]) throws {
        try bind(values)
        defer { reset() }
        while try step() {}
    }

    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    public func string(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: text)
    }

    /// Calls `body` with the blob's bytes, valid only during the call.
    public func withBlob<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let count = Int(sqlite3_column_bytes(handle, column))
        let base = sqlite3_column_blob(handle, column)
        return try body(UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count))
    }

    public func blob(_ column: Int32) -> [UInt8] { withBlob(column) { Array($0) } }

    /// Calls `body` with the UTF-8 bytes of `value(column).stringValue` (none for nil), valid only during the
    /// call; an ASCII text's own bytes, without making a string of them.
    public func withStringBytes<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        if sqlite3_column_type(handle, column) == SQLITE_TEXT, let text = sqlite3_column_text(handle, column) {
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column)))
            // `String(cString:)` ends a text at a NUL and repairs invalid UTF-8: ASCII without a NUL it keeps as it is.
            if !bytes.contains(where: { $0 == 0 || $0 >= 0x80 }) { return try body(bytes) }
        }
        var string = value(column).stringValue ?? ""
        return try string.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }

    public func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(int64(column))
        case SQLITE_FLOAT: return .real(double(column))
        case SQLITE_TEXT: return .text(string(column) ?? "")
        case SQLITE_BLOB: return .blob(blob(column))
        default: return .null
        }
    }

    public func row() -> [SQLValue] { (0..<columnCount).map { value($0) } }
}

extension SQLValue {
    public var stringValue: String? {
        switch self {
        case .text(let s): return s
        case .integer(let i): return String(i)
        case .real(let d): return String(d)
        default: return nil
        }
    }
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .real(let d): return d
        case .text(let s): return Double(s)
        default: return nil
        }
    }
    public var int64Value: Int64? {
        switch self {
        case .integer(let i): return i
        case .real(let d): return Int64(exactly: d.rounded())
        case .text(let s): return Int64(s)
        default: return nil
        }
    }
}

extension SQLiteError: Travel411Error {
    /// From SQLite's primary result code: a locked file is worth retrying, a file that is not a database
    /// is bad data, a failed write is an I/O error.
    public var exitStatus: ExitStatus {
        switch code & 0xFF {
        case 5, 6: return .temporaryFailure  // SQLITE_BUSY, SQLITE_LOCKED
        case 11, 26: return .dataError  // SQLITE_CORRUPT, SQLITE_NOTADB
        case 14: return .noInput  // SQLITE_CANTOPEN
        case 10, 13: return .ioError  // SQLITE_IOERR, SQLITE_FULL
        default: return .failure
        }
    }
}
