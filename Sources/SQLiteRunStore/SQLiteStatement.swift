import CSQLite
import RunStore

/// Tells SQLite to copy bound text before the call returns, since Swift may free the bytes right after.
/// (The C macro `SQLITE_TRANSIENT` is a cast Swift cannot import.)
var sqliteTransient: sqlite3_destructor_type {
    unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A prepared statement owned by a `SQLiteConnection`'s cache.
///
/// It does not finalize itself: the connection finalizes every cached statement before closing, so a
/// copy of this handle can never outlive or double-free its statement.
struct SQLiteStatement {
    let handle: OpaquePointer
    /// The connection's error reporting, so failures say which journal and what SQLite said.
    let connection: SQLiteConnection

    func bind(_ index: Int32, _ value: String?) throws(RunStoreError) {
        guard let value else { return try check(sqlite3_bind_null(handle, index)) }
        // Binding with an explicit byte count keeps text with embedded NULs whole.
        var text = value
        let result = text.withUTF8 { bytes -> Int32 in
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                // A nil pointer would bind NULL, but an empty string must stay an empty string.
                return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                sqlite3_bind_text64(
                    handle, index, chars, sqlite3_uint64(bytes.count), sqliteTransient,
                    UInt8(SQLITE_UTF8))
            }
        }
        try check(result)
    }

    /// Binds `value` as the journal stores it (`CompactText`): a BLOB when it compacts, else TEXT. `key` for an
    /// idempotency key.
    func bindCompact(_ index: Int32, _ value: String?, key: Bool = false) throws(RunStoreError) {
        guard let value, let bytes = CompactText.encode(value, forKey: key) else { return try bind(index, value) }
        try bind(index, bytes: bytes)
    }

    /// Binds a row digest as the journal stores it: an INTEGER for 16 hex digits (`CompactText.integer`), else compacted.
    func bindDigest(_ index: Int32, _ digest: String) throws(RunStoreError) {
        guard let value = CompactText.integer(digest) else { return try bindCompact(index, digest) }
        try bind(index, value)
    }

    /// Binds a target as the journal stores it (`CompactTarget`); nil binds NULL.
    func bindTarget(_ index: Int32, _ target: String?) throws(RunStoreError) {
        guard let target, let bytes = CompactTarget.encode(target) else { return try bind(index, target) }
        try bind(index, bytes: bytes)
    }

    /// Binds what the key index holds of `key` (`LedgerSQL.keyPrefix`); nil binds NULL.
    func bindKeyPrefix(_ index: Int32, _ key: String?) throws(RunStoreError) {
        guard let key, let value = CompactText.keyIndexBytes(key) else { return try bind(index, key) }
        var bigEndian = value.bigEndian
        try check(
            withUnsafeBytes(of: &bigEndian) { sqlite3_bind_blob64(handle, index, $0.baseAddress, 4, sqliteTransient) })
    }

    /// Binds `bytes` as a BLOB; nil binds NULL.
    func bind(_ index: Int32, bytes: [UInt8]?) throws(RunStoreError) {
        guard let bytes else { return try check(sqlite3_bind_null(handle, index)) }
        try check(
            bytes.withUnsafeBytes {
                sqlite3_bind_blob64(handle, index, $0.baseAddress, sqlite3_uint64($0.count), sqliteTransient)
            })
    }

    func bind(_ index: Int32, _ value: Int64) throws(RunStoreError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ index: Int32, _ value: Int64?) throws(RunStoreError) {
        guard let value else { return try check(sqlite3_bind_null(handle, index)) }
        try bind(index, value)
    }

    func bind(_ index: Int32, _ value: Double) throws(RunStoreError) {
        try check(sqlite3_bind_double(handle, index, value))
    }

    func bind(_ index: Int32, _ value: Double?) throws(RunStoreError) {
        guard let value else { return try check(sqlite3_bind_null(handle, index)) }
        try bind(index, value)
    }

    /// Advances to the next row; false when there are no more.
    func step() throws(RunStoreError) -> Bool {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(result, doing: "running a statement")
        }
    }

    /// Steps a statement that returns no rows.
    func run() throws(RunStoreError) {
        _ = try step()
    }

    /// Makes the statement reusable and releases its read snapshot.
    ///
    /// Always called after use: a SELECT left mid-result keeps a WAL read transaction open, which
    /// would hide other processes' writes from this connection and stop checkpoints.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        // The byte count is read after the text pointer, as SQLite's documentation requires.
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// A column written by `bindCompact`: the text it stands for, whether stored as TEXT or as a compacted BLOB.
    /// An INTEGER is a row digest (`bindDigest`).
    func compactText(_ column: Int32) -> String? {
        let type = sqlite3_column_type(handle, column)
        if type == SQLITE_INTEGER { return CompactText.text(ofInteger: sqlite3_column_int64(handle, column)) }
        guard type == SQLITE_BLOB else { return text(column) }
        guard let bytes = sqlite3_column_blob(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        let buffer = UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: UInt8.self), count: count)
        return CompactText.decode(buffer) ?? String(decoding: buffer, as: UTF8.self)
    }

    /// A column written by `bindTarget`: the target, whether stored as TEXT or as a compacted BLOB.
    func target(_ column: Int32) -> String? {
        guard sqlite3_column_type(handle, column) == SQLITE_BLOB else { return text(column) }
        guard let bytes = sqlite3_column_blob(handle, column) else { return nil }
        let buffer = UnsafeBufferPointer(
            start: bytes.assumingMemoryBound(to: UInt8.self), count: Int(sqlite3_column_bytes(handle, column)))
        return CompactTarget.decode(buffer) ?? String(decoding: buffer, as: UTF8.self)
    }

    /// True when the column holds an INTEGER.
    func isInteger(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_INTEGER
    }

    /// The column's bytes when it holds a BLOB; nil for any other type.
    func blob(_ column: Int32) -> [UInt8]? {
        guard sqlite3_column_type(handle, column) == SQLITE_BLOB else { return nil }
        guard let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))))
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func int(_ column: Int32) -> Int {
        Int(truncatingIfNeeded: sqlite3_column_int64(handle, column))
    }

    func int32(_ column: Int32) -> Int32 {
        Int32(clamping: sqlite3_column_int64(handle, column))
    }

    func optionalInt32(_ column: Int32) -> Int32? {
        isNull(column) ? nil : int32(column)
    }

    func double(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    func optionalDouble(_ column: Int32) -> Double? {
        isNull(column) ? nil : double(column)
    }

    private func check(_ result: Int32) throws(RunStoreError) {
        guard result == SQLITE_OK else { throw connection.error(result, doing: "binding a value") }
    }
}
