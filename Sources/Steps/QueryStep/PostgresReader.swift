import PipelineCore
import PostgresRunStore
import RunStore

/// Reads a query's rows from PostgreSQL through the run store's read-only query (the one target that speaks
/// postgres-nio), into the step's row sink, with the step's row limit and its failures.
struct PostgresReader {
    /// Where the database is (its password never printed).
    let location: PostgresLocation

    /// Runs `sql` with `arguments` bound as `$1`, `$2`, … (text), putting each row in `sink`.
    func read(_ sql: String, arguments: [String], timeout: Duration, maxRows: Int, into sink: RowSink) async throws {
        do {
            try await PostgresReadOnlyQuery(location: location).read(
                sql, arguments: arguments, timeout: timeout,
                begin: { columns in
                    if let problem = QueryColumns.problem(columns) { throw QueryFailure.sql(problem) }
                    sink.begin(columns: columns)
                },
                row: { values in
                    guard sink.count < maxRows else {
                        throw QueryFailure.tooManyRows("the query returns more than max-rows (\(maxRows)) rows")
                    }
                    try await sink.add(values)
                })
        } catch let error as PostgresQueryError {
            throw Self.failure(error)
        }
    }

    /// The query step's failure for the database's.
    static func failure(_ error: PostgresQueryError) -> QueryFailure {
        switch error {
        case .sql(let message, let offset): .sql(message, offset: offset)
        case .connection(let message): .connection(message)
        case .timeout(let message): .timeout(message)
        case .value(let message): .value(message)
        }
    }
}
