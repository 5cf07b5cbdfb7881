import Foundation
import PipelineCore
import PostgresNIO
import PostgresRunStore
import TestSupport
import Testing

@testable import QueryStep

/// The query step against the PostgreSQL server CI starts (`PUSHLINE_TEST_POSTGRES`); skipped without one unless
/// `PUSHLINE_REQUIRE_POSTGRES=1`.
@Suite struct PostgresQueryTests {
    /// The server's URL with room to connect while every suite starts at once on a small machine (the default 10 s was
    /// exceeded there once).
    static let url = try? TestPostgres.url(database: "postgres", adding: "connect_timeout=60")
    static let required = TestPostgres.required

    /// Runs `body` with a schema of its own holding `users`, dropped after.
    private func withTable(_ body: (String, String) async throws -> Void) async throws {
        guard let url = Self.url else {
            if Self.required { Issue.record("PUSHLINE_REQUIRE_POSTGRES=1 but PUSHLINE_TEST_POSTGRES names no server") }
            return
        }
        let schema = "q_" + UUID().uuidString.prefix(8).lowercased()
        let location = try PostgresLocation(url, environment: [:])
        let connection = try await PostgresConnections.connect(location, doing: "preparing a test table")
        let logger = Logger(label: "test")
        for statement in [
            "CREATE SCHEMA \(schema)",
            "CREATE TABLE \(schema).users (user_id text, name text, visits int, score numeric, active bool, seen timestamptz, id uuid, note text)",
            """
            INSERT INTO \(schema).users VALUES
              ('u1', 'Ann', 3, 1.50, true, '2026-11-27T03:00:00Z', '6f1c0b9e-1d2a-4c3b-9e8f-0a1b2c3d4e5f', NULL),
              ('u2', 'Bob "the" builder', 0, 2.25, false, NULL, NULL, 'x')
            """,
        ] { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
        do {
            try await body(url, schema)
        } catch {
            _ = try? await connection.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"), logger: logger)
            try? await connection.close()
            throw error
        }
        try await connection.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"), logger: logger)
        try await connection.close()
    }

    @Test("rows come back with each type as text, arguments bound as $1 (cast in the SQL), NULL as null")
    func readsRows() async throws {
        try await withTable { url, schema in
            let query = try #require(
                build(
                    [
                        ("database", url), ("arguments", ["0"]),
                        (
                            "sql",
                            #"select user_id as "userId", name, visits, score, active, seen, id, note from \#(schema).users where visits >= $1::int order by user_id"#
                        ),
                    ],
                    directory: NSTemporaryDirectory()
                ).0)
            let result = try await query.run(in: context())
            guard case .rows(let rows)? = result.outputs["rows"] else {
                Issue.record("rows")
                return
            }
            #expect(rows.columns == ["userId", "name", "visits", "score", "active", "seen", "id", "note"])
            #expect(
                try lines(rows) == [
                    #"{"userId":"u1","name":"Ann","visits":"3","score":"1.5","active":"true","seen":"2026-11-27T03:00:00Z","id":"6f1c0b9e-1d2a-4c3b-9e8f-0a1b2c3d4e5f","note":null}"#,
                    #"{"userId":"u2","name":"Bob \"the\" builder","visits":"0","score":"2.25","active":"false","seen":null,"id":null,"note":"x"}"#,
                ])
            #expect(
                !result.summary.contains("pushline:"),
                "the summary names the database without its password: \(result.summary)")
        }
    }

    @Test(
        "a write is refused by the read-only transaction; a syntax error points into the SQL; a slow statement is stopped at its timeout"
    )
    func refusesAndStops() async throws {
        try await withTable { url, schema in
            let directory = NSTemporaryDirectory()
            let write = try #require(
                build([("database", url), ("sql", "delete from \(schema).users")], directory: directory).0)
            do {
                _ = try await write.run(in: context())
                Issue.record("a write")
            } catch let failure as StepFailure {
                #expect(
                    failure.message.hasSuffix(
                        "(sql): cannot execute DELETE in a read-only transaction (SQLSTATE 25006)"),
                    "\(failure.message)")
            }
            let typo = try #require(
                build([("database", url), ("sql", "select user_id,\nfrom \(schema).users")], directory: directory).0)
            do {
                _ = try await typo.run(in: context())
                Issue.record("a typo")
            } catch let failure as StepFailure {
                #expect(
                    failure.message.contains("(sql, line 2, column 1): syntax error at or near \"from\""),
                    "\(failure.message)")
            }
            let slow = try #require(
                build([("database", url), ("sql", "select pg_sleep(30)"), ("timeout", "1s")], directory: directory).0)
            do {
                _ = try await slow.run(in: context())
                Issue.record("it sleeps")
            } catch let failure as StepFailure {
                #expect(failure.message.contains("ran past its timeout"), "\(failure.message)")
            }
            #expect(try await Self.count(url, schema) == 2, "nothing was deleted")
        }
    }

    @Test("a wrong password fails the step with a message that never holds the password")
    func wrongPassword() async throws {
        try await withTable { url, _ in
            var components = try #require(URLComponents(string: url))
            components.password = "not-the-Password-42"
            let wrong = try #require(components.string)
            let query = try #require(
                build([("database", wrong), ("sql", "select 1")], directory: NSTemporaryDirectory()).0)
            do {
                _ = try await query.run(in: context())
                Issue.record("a wrong password")
            } catch let failure as StepFailure {
                #expect(!"\(failure)".contains("not-the-Password-42"), "\(failure)")
            }
        }
    }

    static func count(_ url: String, _ schema: String) async throws -> Int {
        let connection = try await PostgresConnections.connect(
            try PostgresLocation(url, environment: [:]), doing: "counting")
        defer { Task { try? await connection.close() } }
        var count = 0
        for try await row in try await connection.query(
            PostgresQuery(unsafeSQL: "select count(*) from \(schema).users"), logger: Logger(label: "test"))
        {
            count = try row.decode(Int.self)
        }
        return count
    }
}
