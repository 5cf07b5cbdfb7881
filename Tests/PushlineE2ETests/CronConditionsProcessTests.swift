import CommandTestSupport
import Foundation
import Testing

/// `pushline` as cron starts it: no `HOME`, no journal named. `check` and `run` warn that the journal's default
/// location then depends on the account (and a start made another way may use another journal); a journal named
/// with `--journal` or `PUSHLINE_JOURNAL` silences the warning. And what cron's log needs to find a run again: the
/// first lines of a run, new or resumed, name the pipeline, the run and its journal (a PostgreSQL journal without
/// its password) before any step's output.
@Suite struct CronConditionsProcessTests {
    /// A folder with `app.sqlite` (two users) and `cron-users.yaml`, a pipeline that only queries it: no hub, no network,
    /// so its live run is over as soon as the journal has recorded it.
    func queryOnly() throws -> (directory: String, pipeline: String) {
        let directory = NSTemporaryDirectory() + "pushline-cron-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try PipelineRunProcessTests.sqlite(
            directory + "/app.sqlite", "CREATE TABLE users (user_id TEXT); INSERT INTO users VALUES ('u-1'), ('u-2');")
        let pipeline = directory + "/cron-users.yaml"
        try """
        version: 1
        name: cron-users
        steps:
          - id: users
            query: { database: app.sqlite, sql: "select user_id as \\"userId\\" from users" }

        """.write(toFile: pipeline, atomically: true, encoding: .utf8)
        return (directory, pipeline)
    }

    /// Runs `pushline` to its end with `HOME`, `PUSHLINE_JOURNAL` and `XDG_STATE_HOME` unset, as cron does, plus
    /// `extra`. `CFFIXED_USER_HOME` points Foundation's idea of the account's home (what the default location falls back
    /// on) at `home`, so the default journal lands in the test's folder, never in the real account's. Returns the exit
    /// status and what it wrote to stdout and stderr.
    func withoutHome(_ arguments: [String], home: String, extra: [String: String] = [:]) async throws -> (Int32, String)
    {
        let process = Process()
        process.executableURL = PushlineProcess.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for name in ["HOME", "PUSHLINE_JOURNAL", "XDG_STATE_HOME"] { environment[name] = nil }
        environment["CFFIXED_USER_HOME"] = home
        process.environment = environment.merging(extra) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read on a thread of its own (not a task's: the cooperative pool is shared) until the process closes the pipe.
        let text = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
        return (process.terminationStatus, text)
    }

    static let warning = "chosen because HOME is not set (as under cron); pin it with --journal or PUSHLINE_JOURNAL"

    @Test(
        "with HOME unset and no journal named, check and run say where the journal is and how to pin it; a journal named by --journal or PUSHLINE_JOURNAL is not warned about",
        .timeLimit(.minutes(2)))
    func anUnpinnedJournalIsWarnedAbout() async throws {
        let (directory, pipeline) = try queryOnly()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let home = directory + "/home"
        let defaultJournal = home + "/.local/state/pushline/journal.sqlite"

        // check creates no journal: it shows where a run's would be.
        let (checked, check) = try await withoutHome(["check", pipeline], home: home)
        #expect(checked == 0, "\(check)")
        // A run writes its journal there: only when the default is inside this test's folder.
        try #require(
            check.contains("warning: the run journal is \(defaultJournal), \(Self.warning)"),
            "the default journal is not where the test put the home: \(check)")
        #expect(!FileManager.default.fileExists(atPath: defaultJournal), "check created the journal")

        let (ran, run) = try await withoutHome(["run", pipeline], home: home)
        #expect(ran == 0, "\(run)")
        #expect(run.contains("pushline: warning: the run journal is \(defaultJournal), \(Self.warning)"), "\(run)")
        #expect(FileManager.default.fileExists(atPath: defaultJournal), "the run was journalled where it warned")
        let warningLine = try #require(run.split(separator: "\n").firstIndex { $0.contains(Self.warning) })
        let stepLine = try #require(run.split(separator: "\n").firstIndex { $0.contains("[1/1] query") }, "\(run)")
        #expect(warningLine < stepLine, "the warning comes before the run's output: \(run)")

        // Named, by --journal or by PUSHLINE_JOURNAL: no warning, whatever HOME is.
        let named = directory + "/named.sqlite"
        for (arguments, extra) in [
            (["--journal", named], [:]), ([], ["PUSHLINE_JOURNAL": named]),
        ] as [([String], [String: String])] {
            let (checkedNamed, checkNamed) = try await withoutHome(
                ["check", pipeline] + arguments, home: home, extra: extra)
            #expect(checkedNamed == 0, "\(checkNamed)")
            #expect(!checkNamed.contains("HOME is not set"), "\(arguments) \(extra): \(checkNamed)")
            let (ranNamed, runNamed) = try await withoutHome(["run", pipeline] + arguments, home: home, extra: extra)
            #expect(ranNamed == 0, "\(runNamed)")
            #expect(!runNamed.contains("HOME is not set"), "\(arguments) \(extra): \(runNamed)")
            #expect(runNamed.contains("journal named.sqlite") || runNamed.contains("journal \(named)"), "\(runNamed)")
        }
        #expect(FileManager.default.fileExists(atPath: named))
    }

    /// The line that names the pipeline, the run and the journal, and where it is among `output`'s lines: only lines of
    /// `pushline:` itself (a warning, the resume) come before it, and it comes before any step's output.
    func header(of output: String, run: String, resumed: Bool) throws -> String {
        let lines = output.split(separator: "\n").map(String.init)
        let index = try #require(
            lines.firstIndex {
                $0.hasPrefix("pushline: pipeline 'recorded' (")
                    && $0.contains("): \(resumed ? "run" : "new run") \(run), journal ")
            }, "no line names the pipeline, the run and the journal: \(output)")
        #expect(lines[..<index].allSatisfy { $0.hasPrefix("pushline: ") }, "lines before it: \(output)")
        if resumed { #expect(lines.first?.hasPrefix("pushline: resuming run \(run)") == true, "\(output)") }
        for stepOutput in ["plugin progress", "[1/1]", "recorded the request"] {
            if let at = lines.firstIndex(where: { $0.contains(stepOutput) }) {
                #expect(index < at, "'\(stepOutput)' before the pipeline's line: \(output)")
            }
        }
        return lines[index]
    }

    /// How the journal `location` is shown: a PostgreSQL URL without its password (user, host, port, database).
    func shown(_ location: String) throws -> String {
        guard location.hasPrefix("postgres://") else { return location }
        let url = try #require(URLComponents(string: location))
        return "postgres://\(url.user ?? "")@\(url.host ?? ""):\(url.port ?? 5432)\(url.path)"
    }

    @Test(
        "the first lines of a new run and of the run resumed after SIGTERM name the pipeline, the run and the journal (a PostgreSQL journal without its password) before any step's output",
        arguments: JournalKind.all)
    func aRunNamesItselfFirst(_ kind: JournalKind) async throws {
        let (directory, pipeline) = try PluginSignalProcessTests().slowRecorder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try await kind.make(directory)
        let environment = ["PUSHLINE_JOURNAL": journal]
        let first = try PushlineProcess(["run", pipeline], environment: environment)
        _ = try await first.waitForOutput(containing: "plugin progress")
        #expect(try await first.stop(signal: SIGTERM) == 143, "\(first.stdout)")
        let run = try #require(try PluginSignalProcessTests().requests(directory).first?["run"] as? String)
        let started = try header(of: first.stdout, run: run, resumed: false)

        try FileManager.default.removeItem(atPath: directory + "/slow")
        let resumed = try PushlineProcess(["run", pipeline], environment: environment)
        #expect(try await resumed.waitForExit() == 0, "\(resumed.stdout)")
        let again = try header(of: resumed.stdout, run: run, resumed: true)

        let location = try shown(journal)
        for line in [started, again] {
            #expect(
                line.hasSuffix(", journal \(location)")
                    || (!journal.hasPrefix("postgres://") && line.hasSuffix(", journal journal.sqlite")),
                "\(line)")
        }
        if let password = URLComponents(string: journal)?.password, !password.isEmpty {
            #expect(!first.stdout.contains(password) && !resumed.stdout.contains(password), "the password is shown")
        }
    }
}
