import Foundation

/// A PostgreSQL server of one test's own (`.ci/postgres.sh` in a scratch directory), so the test can crash and
/// restart it without disturbing the shared test server other tests use at the same time.
package struct PrivatePostgres {
    package let directory: String
    /// `postgres://pushline:…@127.0.0.1:PORT/postgres`.
    package let url: String

    package static let script = CommandRunner.root + "/.ci/postgres.sh"

    package static func start() throws -> PrivatePostgres {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("pushline-pg-\(UUID().uuidString)")
            .path
        // The server runs as another user when the tests run as root: it must be able to reach its directory.
        try FileManager.default.createDirectory(
            atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let directory = parent + "/pg"
        let output = try run("start", directory)
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("export PUSHLINE_TEST_POSTGRES=") })
        else {
            throw Failure(output: output)
        }
        let url = line.dropFirst("export PUSHLINE_TEST_POSTGRES=".count).trimmingCharacters(
            in: CharacterSet(charactersIn: "'"))
        return PrivatePostgres(directory: directory, url: url)
    }

    /// `pg_ctl stop -m immediate`: the server dies without a checkpoint, as on a power cut.
    package func crash() throws { _ = try Self.run("crash", directory) }
    /// Starts it again on the same port.
    package func restart() throws { _ = try Self.run("restart", directory) }
    /// Stops it and removes its files.
    package func remove() {
        _ = try? Self.run("stop", directory)
        try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent)
    }

    package struct Failure: Error, CustomStringConvertible {
        package let output: String
        package var description: String { "postgres.sh failed: \(output)" }
    }

    private static func run(_ command: String, _ directory: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script, command, directory]
        // A file, not a pipe: the server pg_ctl starts outlives the script and would hold a pipe open forever.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("postgres-sh-\(UUID().uuidString).log")
            .path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: log) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Polled, not waitUntilExit: Foundation's wait can miss the end of a script whose child (the server) lives on.
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            process.terminate()
            throw Failure(
                output: "postgres.sh \(command) did not finish within 120 s: "
                    + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
        }
        try handle.close()
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else { throw Failure(output: text) }
        return text
    }
}
