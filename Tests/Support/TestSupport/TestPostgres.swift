import Foundation

/// The PostgreSQL server the tests share (`PUSHLINE_TEST_POSTGRES`, started by `.ci/postgres.sh start DIR`), reached
/// with `psql` for what the product never does: creating and dropping databases, arranging rows behind its back.
///
/// `psql` is waited for on a thread of its own. Swift's tasks share one thread per core; a test that blocked one of
/// them on `CREATE DATABASE` (which the server runs one at a time, so dozens of suites starting at once wait in turn)
/// held up every other test's store calls past their time limits.
package enum TestPostgres {
    /// `postgres://pushline:…@127.0.0.1:PORT/postgres?…`, from `PUSHLINE_TEST_POSTGRES`; nil when none is named.
    package static let adminURL = ProcessInfo.processInfo.environment["PUSHLINE_TEST_POSTGRES"].flatMap {
        $0.isEmpty ? nil : $0
    }
    /// True when CI demands the PostgreSQL tests (`PUSHLINE_REQUIRE_POSTGRES=1`): a missing server fails them.
    package static let required = ProcessInfo.processInfo.environment["PUSHLINE_REQUIRE_POSTGRES"] == "1"
    /// True when PostgreSQL tests run: a server is named, or CI requires one.
    package static var isEnabled: Bool { adminURL != nil || required }

    /// Why a test that needs the server could not have it.
    package struct Missing: Error, CustomStringConvertible {
        package init() {}
        package var description: String {
            "PUSHLINE_REQUIRE_POSTGRES=1 but PUSHLINE_TEST_POSTGRES names no server (.ci/postgres.sh start DIR)"
        }
    }

    /// The admin URL with another database, keeping its parameters (`?sslmode=prefer` when it has none), plus
    /// `extra` parameters.
    package static func url(database: String, adding extra: String? = nil) throws -> String {
        guard let admin = adminURL, let at = admin.range(of: "@"),
            let slash = admin[at.upperBound...].firstIndex(of: "/")
        else { throw Missing() }
        let query = admin[slash...].firstIndex(of: "?").map { String(admin[$0...]) } ?? "?sslmode=prefer"
        return String(admin[..<slash]) + "/" + database + query + (extra.map { "&" + $0 } ?? "")
    }

    /// A new database name starting with `prefix`, unique to this call.
    package static func uniqueName(_ prefix: String) -> String {
        prefix + UUID().uuidString.lowercased().filter(\.isHexDigit)
    }

    /// Creates database `name`; one that already exists is left as it is when `existing` allows it (a second
    /// handle on one test's store).
    package static func createDatabase(_ name: String, allowingExisting existing: Bool = false) async throws {
        do {
            try await query("CREATE DATABASE \(name)")
        } catch let failure as PsqlFailure where existing && failure.message.contains("already exists") {
            return
        }
    }

    /// Drops database `name` and whatever sessions still use it.
    package static func dropDatabase(_ name: String) async {
        _ = try? await query("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs `sql` with psql against `url` (the admin database when nil): the first column of the last row, trimmed.
    @discardableResult
    package static func query(_ sql: String, database url: String? = nil) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try queryWaiting(sql, database: url) }) }
        }
    }

    /// `query`, blocking the calling thread: for a `defer`, which cannot wait, and never from a task that others wait on.
    @discardableResult
    package static func queryWaiting(_ sql: String, database url: String? = nil) throws -> String {
        guard let target = url ?? adminURL else { throw Missing() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", target, "-c", sql]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PsqlFailure(statement: sql, message: text) }
        return text.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    }

    /// psql refused a statement; `message` is what it printed.
    package struct PsqlFailure: Error, CustomStringConvertible {
        package let statement: String
        package let message: String
        package var description: String { "psql failed on \(statement): \(message)" }
    }
}
