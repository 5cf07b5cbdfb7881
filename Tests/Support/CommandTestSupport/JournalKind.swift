import Foundation

/// Where an end-to-end run keeps its journal: the SQLite file, or, when a test server is configured
/// (`PUSHLINE_TEST_POSTGRES`, started by `.ci/postgres.sh`), a fresh PostgreSQL database of its own.
package struct JournalKind: Sendable, CustomStringConvertible {
    package let description: String
    /// The `--journal` / `PUSHLINE_JOURNAL` value for a test using `directory`.
    package let make: @Sendable (_ directory: String) throws -> String

    package static let sqlite = JournalKind(description: "SQLite") { $0 + "/journal.sqlite" }

    package static let postgres = JournalKind(description: "PostgreSQL") { _ in
        guard let admin = ProcessInfo.processInfo.environment["PUSHLINE_TEST_POSTGRES"], let at = admin.range(of: "@"),
            let slash = admin[at.upperBound...].firstIndex(of: "/")
        else {
            throw CocoaError(
                .featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "PUSHLINE_TEST_POSTGRES names no server"])
        }
        let name = "pushline_e2e_" + UUID().uuidString.lowercased().filter(\.isHexDigit)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", admin, "-c", "CREATE DATABASE \(name)"]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        let query = admin[slash...].firstIndex(of: "?").map { String(admin[$0...]) } ?? ""
        return String(admin[..<slash]) + "/" + name + query
    }

    /// SQLite always; PostgreSQL too when a server is configured or CI requires one.
    package static let all: [JournalKind] = {
        let environment = ProcessInfo.processInfo.environment
        let enabled =
            environment["PUSHLINE_TEST_POSTGRES"].map { !$0.isEmpty } ?? false
            || environment["PUSHLINE_REQUIRE_POSTGRES"] == "1"
        return enabled ? [.sqlite, .postgres] : [.sqlite]
    }()
}
