import HubWire
import Logging
import NIOCore
import PipelineCore
import PostgresNIO
import RunStore

/// The statements that write items: `INSERT … SELECT … FROM jsonb_to_recordset(…) ON CONFLICT DO UPDATE`s of the items
/// table, `$1` the run, `$2` the time and the rows one jsonb parameter.
///
/// Their text is fixed whatever the number of rows, so each is prepared once per connection (a named statement) and the
/// server parses and plans it once, where a statement of its own per group was parsed and planned every time — about
/// half the server's CPU per item.
extension PostgresLedger {
    /// Marks items sending and counts an attempt (1 for a new item), clearing the previous attempt's id and error.
    struct MarkSending: PostgresPreparedStatement {
        static let name = "pushline_mark_sending_v1"
        static let sql = markSQL(rows: "$3")
        typealias Row = ()
        var seq: Int
        var now: Double
        var items: ItemRows

        func makeBindings() throws -> PostgresBindings {
            var binds = PostgresBindings(capacity: 3)
            binds.append(seq)
            binds.append(now)
            try binds.append(items)
            return binds
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    /// Records outcomes: a new row gets 0 attempts; an existing one keeps its count, step id, origin, digest and
    /// idempotency key (those were recorded when it was marked sending; the SQLite journal leaves the key alone too).
    struct Record: PostgresPreparedStatement {
        static let name = "pushline_record_v1"
        static let sql = recordSQL(rows: "$3")
        typealias Row = ()
        var seq: Int
        var now: Double
        var outcomes: ItemRows

        func makeBindings() throws -> PostgresBindings {
            var binds = PostgresBindings(capacity: 3)
            binds.append(seq)
            binds.append(now)
            try binds.append(outcomes)
            return binds
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    /// `Record` and `MarkSending` as one statement (one round trip): the record a data-modifying `WITH`. Only for rows
    /// that are not in both: a statement cannot change one row twice.
    struct RecordAndMark: PostgresPreparedStatement {
        static let name = "pushline_record_and_mark_v1"
        static let sql = "WITH recorded AS (" + recordSQL(rows: "$3") + ") " + markSQL(rows: "$4")
        typealias Row = ()
        var seq: Int
        var now: Double
        var outcomes: ItemRows
        var items: ItemRows

        func makeBindings() throws -> PostgresBindings {
            var binds = PostgresBindings(capacity: 4)
            binds.append(seq)
            binds.append(now)
            try binds.append(outcomes)
            try binds.append(items)
            return binds
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    private static let insert = """
        INSERT INTO pushline.items AS items (run, step, "row", step_id, origin, digest, idempotency_key, target, state, attempts,
                                             notification_id, error, retriable, updated_at)
        """

    private static let itemColumns = """
        step integer, "row" integer, step_id text, origin text, digest text, idempotency_key text, target text
        """

    private static func markSQL(rows: String) -> String {
        insert + """

            SELECT $1, m.step, m."row", m.step_id, m.origin, m.digest, m.idempotency_key, m.target, 'sending', 1, NULL, NULL,
                   false, $2
            FROM jsonb_to_recordset(\(rows)) AS m(\(itemColumns))
            ON CONFLICT (run, step, "row") DO UPDATE SET
                step_id = excluded.step_id, origin = excluded.origin, digest = excluded.digest,
                idempotency_key = excluded.idempotency_key, target = excluded.target,
                state = 'sending', attempts = items.attempts + 1,
                notification_id = NULL, error = NULL, retriable = false, updated_at = excluded.updated_at
            """
    }

    private static func recordSQL(rows: String) -> String {
        insert + """

            SELECT $1, r.step, r."row", r.step_id, r.origin, r.digest, r.idempotency_key, r.target, r.state, 0,
                   r.notification_id, r.error, r.retriable, $2
            FROM jsonb_to_recordset(\(rows))
                 AS r(\(itemColumns), state text, notification_id text, error text, retriable boolean)
            ON CONFLICT (run, step, "row") DO UPDATE SET
                target = coalesce(items.target, excluded.target), state = excluded.state,
                notification_id = excluded.notification_id, error = excluded.error, retriable = excluded.retriable,
                updated_at = excluded.updated_at
            """
    }
}

/// Items or outcomes as one jsonb parameter: an array of objects whose keys are the items table's columns (a nil is
/// left out, which `jsonb_to_recordset` reads as NULL). Text is stored as `StoredText` keeps it, so no NUL reaches
/// jsonb. The JSON is written here with `JSONText`'s string literals: Foundation's encoder cost a tenth of the writer's
/// CPU.
struct ItemRows: PostgresNonThrowingEncodable {
    static var psqlType: PostgresDataType { .jsonb }
    static var psqlFormat: PostgresFormat { .binary }

    private let json: String

    init(_ items: some Collection<LedgerItem>) {
        json = Self.array(items) { item, json in Self.append(item, to: &json) }
    }

    init(_ outcomes: some Collection<LedgerOutcome>) {
        json = Self.array(outcomes) { outcome, json in
            Self.append(outcome.item, to: &json)
            Self.append("state", outcome.state.rawValue, to: &json)
            Self.append("notification_id", StoredText.encode(outcome.notificationId), to: &json)
            Self.append("error", StoredText.encode(outcome.error), to: &json)
            json += outcome.retriable ? ",\"retriable\":true" : ",\"retriable\":false"
        }
    }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        byteBuffer.writeInteger(UInt8(1))  // jsonb's binary form: a version byte, then the text
        byteBuffer.writeString(json)
    }

    /// `rows` as a JSON array of objects, each written by `write` (which starts with its first field, step).
    private static func array<Row>(_ rows: some Collection<Row>, _ write: (Row, inout String) -> Void) -> String {
        var json = "["
        json.reserveCapacity(256 * rows.count)
        var first = true
        for row in rows {
            json += first ? "{" : ",{"
            first = false
            write(row, &json)
            json += "}"
        }
        return json + "]"
    }

    /// An item's columns, from step to target.
    private static func append(_ item: LedgerItem, to json: inout String) {
        json += "\"step\":" + String(item.key.step) + ",\"row\":" + String(item.key.row)
        append("step_id", StoredText.encode(item.stepId), to: &json)
        append("origin", StoredText.encode(item.origin), to: &json)
        append("digest", StoredText.encode(item.digest), to: &json)
        append("idempotency_key", StoredText.encode(item.idempotencyKey), to: &json)
        append("target", StoredText.encode(item.target), to: &json)
    }

    /// `,"name":"value"`; nothing for nil, which `jsonb_to_recordset` reads as NULL.
    private static func append(_ name: String, _ value: String?, to json: inout String) {
        guard let value else { return }
        json += ",\"" + name + "\":" + JSONText.quote(value)
    }
}

extension PostgresConnection {
    /// Runs a prepared statement that returns no rows, reading its result to the end. (PostgresNIO's own form for
    /// these, which returns the command tag, traps when it reads the tag of a result not yet read.)
    func perform<Statement: PostgresPreparedStatement>(_ statement: Statement, logger: Logger) async throws
    where Statement.Row == () {
        for try await _ in try await execute(statement, logger: logger) {}
    }
}
