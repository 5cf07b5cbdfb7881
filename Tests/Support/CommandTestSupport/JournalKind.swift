import Foundation
import TestSupport

/// Where an end-to-end run keeps its journal: the SQLite file, or, when a test server is configured
/// (`PUSHLINE_TEST_POSTGRES`, started by `.ci/postgres.sh`), a fresh PostgreSQL database of its own.
package struct JournalKind: Sendable, CustomStringConvertible {
    package let description: String
    /// The `--journal` / `PUSHLINE_JOURNAL` value for a test using `directory`.
    package let make: @Sendable (_ directory: String) async throws -> String

    package static let sqlite = JournalKind(description: "SQLite") { $0 + "/journal.sqlite" }

    package static let postgres = JournalKind(description: "PostgreSQL") { _ in
        let name = TestPostgres.uniqueName("pushline_e2e_")
        try await TestPostgres.createDatabase(name)
        return try TestPostgres.url(database: name)
    }

    /// SQLite always; PostgreSQL too when a server is configured or CI requires one.
    package static let all: [JournalKind] = TestPostgres.isEnabled ? [.sqlite, .postgres] : [.sqlite]
}
