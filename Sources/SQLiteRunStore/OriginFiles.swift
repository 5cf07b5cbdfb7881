import RunStore

/// Item origins as the journal stores them. A row's origin is its file and line (`/srv/digest/rows.csv:42`); a million
/// rows of one file would repeat its path a million times, so the path is kept once in the `files` table and the item
/// holds `file id << 32 | line` as a BLOB of its big-endian bytes without leading zeros (a BLOB, since the column's TEXT
/// affinity would turn an INTEGER into its digits). An origin of another shape (a tag send's `step 2`, a line number
/// written `0042`) stays TEXT, as does every origin a journal recorded before this.
///
/// Since schema 7 a row's line is stored as its distance from the item's row number, which is the same small number for
/// every row of a file (a CSV row N is on line N + 1 unless a quoted field spans lines): the item holds the INTEGER
/// `file id << 8 | (line - row)` in one or two bytes (the column has BLOB affinity, so an INTEGER stays one). A line
/// before its row or 256 lines past it keeps the BLOB code.
struct OriginFiles {
    private var ids: [String: Int64] = [:]
    private var paths: [Int64: String] = [:]

    /// `file:line` with a canonical decimal line that fits the code; nil for any other origin.
    static func split(_ origin: String) -> (file: String, line: Int64)? {
        guard let colon = origin.utf8.lastIndex(of: UInt8(ascii: ":")), colon != origin.utf8.startIndex else {
            return nil
        }
        let digits = origin.utf8[origin.utf8.index(after: colon)...]
        guard let first = digits.first, first != UInt8(ascii: "0"), digits.count <= 10,
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let line = Int64(Substring(digits)), line < 1 << 32
        else { return nil }
        return (String(origin[..<colon]), line)
    }

    /// How an item's origin is stored.
    enum Stored: Equatable {
        /// The file's id and the line's distance from the row: `id << 8 | (line - row)`.
        case distance(Int64)
        /// The file's id and the line: `id << 32 | line`, as big-endian bytes without leading zeros.
        case code([UInt8])
        /// The origin as written.
        case text
    }

    /// How the origin of the item at `row` is stored, adding its file to `files` when new.
    mutating func stored(_ origin: String, row: Int, _ connection: SQLiteConnection) throws(RunStoreError) -> Stored {
        guard let (file, line) = Self.split(origin) else { return .text }
        guard let id = try id(of: file, connection, adding: true), id < 1 << 31 else { return .text }
        let distance = line - Int64(row)
        return (0..<256).contains(distance) ? .distance(id << 8 | distance) : .code(Self.bytes(id << 32 | line))
    }

    /// The origin an item's stored value stands for: the text, or the file and line of a code; `row` is the item's.
    mutating func origin(_ statement: SQLiteStatement, _ column: Int32, row: Int, _ connection: SQLiteConnection)
        throws(RunStoreError) -> String
    {
        let id: Int64
        let line: Int64
        if statement.isInteger(column) {
            let value = statement.int64(column)
            (id, line) = (value >> 8, Int64(row) + (value & 0xff))
        } else if let bytes = statement.blob(column) {
            let code = bytes.reduce(Int64(0)) { $0 << 8 | Int64($1) }
            (id, line) = (code >> 32, code & 0xffff_ffff)
        } else {
            return statement.text(column) ?? ""
        }
        if paths[id] == nil { try load(connection) }
        return (paths[id] ?? "?") + ":" + String(line)
    }

    /// The file id and line of `origin` when its file is known (`runs find` matches an item's origin by them); nil when
    /// no item can have it stored as a code.
    mutating func existingLine(of origin: String, _ connection: SQLiteConnection) throws(RunStoreError) -> (
        id: Int64, line: Int64
    )? {
        guard let (file, line) = Self.split(origin), let id = try id(of: file, connection, adding: false) else {
            return nil
        }
        return (id, line)
    }

    /// `code`'s big-endian bytes from its first that is not zero.
    static func bytes(_ code: Int64) -> [UInt8] {
        let all = (0..<8).reversed().map { UInt8(truncatingIfNeeded: code >> ($0 * 8)) }
        return Array(all.drop { $0 == 0 })
    }

    private mutating func id(of file: String, _ connection: SQLiteConnection, adding: Bool) throws(RunStoreError)
        -> Int64?
    {
        if let known = ids[file] { return known }
        if adding {
            try connection.execute("INSERT INTO files (path) VALUES (?1) ON CONFLICT (path) DO NOTHING") {
                (statement) throws(RunStoreError) in
                try statement.bind(1, file)
            }
        }
        var found: Int64?
        try connection.query(
            "SELECT id FROM files WHERE path = ?1",
            bind: { (statement) throws(RunStoreError) in
                try statement.bind(1, file)
            }
        ) { (row) throws(RunStoreError) in found = row.int64(0) }
        if let found {
            ids[file] = found
            paths[found] = file
        }
        return found
    }

    /// Every file the journal knows (another process may have added some since this one looked).
    private mutating func load(_ connection: SQLiteConnection) throws(RunStoreError) {
        var loaded: [(Int64, String)] = []
        try connection.query("SELECT id, path FROM files") { (row) throws(RunStoreError) in
            loaded.append((row.int64(0), row.text(1) ?? ""))
        }
        for (id, path) in loaded {
            ids[path] = id
            paths[id] = path
        }
    }
}
