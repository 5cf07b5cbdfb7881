/// Why a query gave no rows: the database's own message, and where in the SQL it points when it says.
struct QueryFailure: Error, Sendable, Equatable {
    /// What kind of failure, for the hint.
    enum Kind: Sendable, Equatable {
        /// The database refused the SQL (syntax, an unknown table or column, a write in a read-only transaction).
        case sql
        /// The database could not be opened or reached, or refused the login.
        case connection
        /// The query ran past its `timeout`.
        case timeout
        /// More rows than `max-rows`.
        case tooManyRows
        /// A value the step cannot read as text.
        case value
    }

    /// The kind.
    let kind: Kind
    /// The database's message (never a password).
    let message: String
    /// The 0-based character offset in the SQL the database points at, when it says.
    var offset: Int?

    init(_ kind: Kind, _ message: String, offset: Int? = nil) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }
}
