import CSQLite
import RunStore

/// One open SQLite connection and its cache of prepared statements.
///
/// Not thread-safe by itself: `Journal` keeps it inside a `Mutex`, and it is opened with
/// `SQLITE_OPEN_NOMUTEX` because that mutex already serialises every use.
final class SQLiteConnection {
    /// The journal's path, for messages.
    let path: String
    private let db: OpaquePointer
    /// Statements by SQL text. Preparing costs far more than a lookup, and `entry` runs once per row.
    private var statements: [String: OpaquePointer] = [:]
    /// The journal's origin files (`OriginFiles`), known to this connection. Kept here because every read and write of
    /// items holds the connection; forgotten when a transaction rolls back, which may have undone a file it added.
    var originFiles = OriginFiles()

    /// How long a writer waits for another process's write transaction before giving up, unless told otherwise.
    static let busyTimeoutMilliseconds: Int32 = 5000
    /// This connection's wait, in milliseconds.
    let busyTimeout: Int32

    init(path: String, busyTimeoutMilliseconds: Int32 = SQLiteConnection.busyTimeoutMilliseconds) throws(RunStoreError)
    {
        self.path = path
        busyTimeout = busyTimeoutMilliseconds
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            let detail = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
            // A failed open can still allocate a handle, which must be closed.
            sqlite3_close_v2(handle)
            throw RunStoreError("cannot open the run journal at \(path): \(detail)", kind: .configuration)
        }
        self.db = handle
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeout)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    /// The cached statement for `sql`, prepared on first use.
    func statement(_ sql: String) throws(RunStoreError) -> SQLiteStatement {
        if let cached = statements[sql] { return SQLiteStatement(handle: cached, connection: self) }
        var handle: OpaquePointer?
        let result = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard result == SQLITE_OK, let handle else { throw error(result, doing: "preparing a statement") }
        statements[sql] = handle
        return SQLiteStatement(handle: handle, connection: self)
    }

    /// Runs `sql` with `bind`, calling `row` for each result row, and always resets the statement.
    func query(
        _ sql: String, bind: (SQLiteStatement) throws(RunStoreError) -> Void = { _ in },
        row: (SQLiteStatement) throws(RunStoreError) -> Void
    ) throws(RunStoreError) {
        let statement = try statement(sql)
        defer { statement.reset() }
        try bind(statement)
        while try statement.step() { try row(statement) }
    }

    /// Runs a statement that returns no rows; returns how many rows it changed.
    @discardableResult
    func execute(_ sql: String, bind: (SQLiteStatement) throws(RunStoreError) -> Void = { _ in }) throws(RunStoreError)
        -> Int
    {
        let statement = try statement(sql)
        defer { statement.reset() }
        try bind(statement)
        try statement.run()
        return Int(sqlite3_changes(db))
    }

    /// Runs several statements with no parameters (the schema); not cached, since it runs once.
    func executeScript(_ sql: String, doing: String = "updating the schema") throws(RunStoreError) {
        let result = sqlite3_exec(db, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw error(result, doing: doing) }
    }

    /// Defines `pushline_compact(value, isKey)`, the SQL spelling of `CompactText.encode` (a BLOB, or the value as it
    /// was), with which a migration compacts the rows an older pushline wrote.
    func defineCompactFunction() throws(RunStoreError) {
        let result = sqlite3_create_function_v2(
            db, "pushline_compact", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, values in
                guard let values, let value = values[0] else { return sqlite3_result_null(context) }
                guard sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else {
                    return sqlite3_result_value(context, value)
                }
                let string = String(
                    decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
                guard let bytes = CompactText.encode(string, forKey: sqlite3_value_int(values[1]) != 0) else {
                    return sqlite3_result_value(context, value)
                }
                bytes.withUnsafeBytes {
                    sqlite3_result_blob64(context, $0.baseAddress, sqlite3_uint64($0.count), sqliteTransient)
                }
            }, nil, nil, nil)
        guard result == SQLITE_OK else { throw error(result, doing: "updating the schema") }
    }

    /// Defines `pushline_target(value)`: the text of a target as `CompactTarget` stored it (TEXT as it is), which
    /// `runs find` searches. Defined on every connection the journal opens.
    func defineTargetFunction() throws(RunStoreError) {
        let result = sqlite3_create_function_v2(
            db, "pushline_target", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, values in
                guard let values, let value = values[0] else { return sqlite3_result_null(context) }
                guard sqlite3_value_type(value) == SQLITE_BLOB, let blob = sqlite3_value_blob(value) else {
                    return sqlite3_result_value(context, value)
                }
                let bytes = UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_value_bytes(value)))
                guard let text = CompactTarget.decode(bytes) else { return sqlite3_result_value(context, value) }
                var utf8 = Array(text.utf8)
                utf8.withUnsafeMutableBytes { buffer in
                    sqlite3_result_text64(
                        context, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), sqlite3_uint64(buffer.count),
                        sqliteTransient, UInt8(SQLITE_UTF8))
                }
            }, nil, nil, nil)
        guard result == SQLITE_OK else { throw error(result, doing: "opening the run journal") }
    }

    /// Runs `body` in a write transaction, rolling back if it throws.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock up front, so a second process waits (up to the busy timeout)
    /// at the start instead of failing halfway with a deadlock when it tries to upgrade a read.
    func transaction<T>(_ body: () throws(RunStoreError) -> T) throws(RunStoreError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            rollback()
            originFiles = OriginFiles()
            throw error
        }
    }

    private func rollback() {
        // SQLite may already have rolled back on its own (a full disk, an I/O error).
        guard sqlite3_get_autocommit(db) == 0 else { return }
        sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
    }

    /// A `RunStoreError` for a failed SQLite call, worded for the person running the cron job.
    func error(_ result: Int32, doing action: String) -> RunStoreError {
        let primary = result & 0xff
        let detail = String(cString: sqlite3_errmsg(db))
        switch primary {
        case SQLITE_NOTADB:
            return RunStoreError(
                "\(path) is not a SQLite database, so it cannot be the run journal (\(detail))", kind: .configuration)
        case SQLITE_BUSY:
            return RunStoreError(
                "the run journal at \(path) stayed locked by another process for "
                    + "\(busyTimeout / 1000) s (\(detail))", kind: .unavailable)
        case SQLITE_FULL:
            return RunStoreError("the disk holding the run journal at \(path) is full (\(detail))")
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN:
            return RunStoreError("cannot write the run journal at \(path): \(detail)", kind: .configuration)
        case SQLITE_CORRUPT:
            return RunStoreError("the run journal at \(path) is corrupt: \(detail)")
        default:
            return RunStoreError("\(action) in the run journal at \(path) failed: \(detail) (SQLite code \(result))")
        }
    }
}
