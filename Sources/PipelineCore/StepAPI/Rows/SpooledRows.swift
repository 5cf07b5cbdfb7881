/// Rows a step produced (a query's result), as a later step's `for-each` reads them: kept in the run store's spool,
/// so a resumed run and every part of a split run read the same rows, never a fresh query.
///
/// Each row is one JSON object line, its fields in column order, numbered from 1 in the spool.
public struct SpooledRows: Sendable, Equatable, Codable {
    /// The spool's key in the run store; nil for rows kept only in `file` (a dry run's, which writes no store).
    public var spool: Int64?
    /// A JSON Lines file holding the rows, when this process has one (a dry run's rows); nil for rows in the store.
    public var file: String?
    /// The columns, in the order the source gave them.
    public var columns: [String]
    /// How many rows.
    public var count: Int
    /// A SHA-256 over the rows' lines, in order: the spool read back is the spool written.
    public var digest: String
    /// The run whose step produced the rows, when known.
    public var run: String?
    /// When the rows were read from their source (epoch seconds).
    public var readAt: Double

    /// Creates a value.
    public init(
        spool: Int64?, file: String? = nil, columns: [String], count: Int, digest: String, run: String? = nil,
        readAt: Double
    ) {
        self.spool = spool
        self.file = file
        self.columns = columns
        self.count = count
        self.digest = digest
        self.run = run
        self.readAt = readAt
    }

    /// As the JSON report and `runs show` write it: the count, the columns and the digest (never the rows).
    public var report: ReportValue {
        var fields = [
            ReportField("count", .int(count)), ReportField("columns", .array(columns.map(ReportValue.string))),
            ReportField("digest", .string(digest)),
        ]
        if let run { fields.append(ReportField("run", .string(run))) }
        return .object(fields)
    }
}
