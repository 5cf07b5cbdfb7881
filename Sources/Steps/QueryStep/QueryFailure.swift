import RunStore

/// Why a query gave no rows, in the database's own words (never a password).
enum QueryFailure: Error, Sendable, Equatable {
    /// The database refused the SQL (syntax, an unknown table or column, a write in a read-only transaction), pointing
    /// at a 0-based character `offset` in it when it says where.
    case sql(String, offset: Int? = nil)
    /// The database could not be opened or reached, or refused the login.
    case connection(String)
    /// The query ran past its `timeout`.
    case timeout(String)
    /// More rows than `max-rows`.
    case tooManyRows(String)
    /// A value the step cannot read as text.
    case value(String)
}

extension QueryFailure {
    /// The step's failure for the database's.
    init(_ error: ReadOnlyQueryError) {
        switch error {
        case .sql(let message, let offset): self = .sql(message, offset: offset)
        case .connection(let message): self = .connection(message)
        case .timeout(let message): self = .timeout(message)
        case .value(let message): self = .value(message)
        }
    }
}
