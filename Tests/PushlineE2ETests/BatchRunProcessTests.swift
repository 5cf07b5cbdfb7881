import CommandTestSupport
import Foundation
import TestSupport
import Testing

/// Cron-grade batch runs: the real `pushline run` of the daily digest against the real emulator, with
/// faults, SIGKILL, SIGTERM, a second run at once, and a completed run started again.
@Suite(.serialized) struct BatchRunProcessTests {
    let inputs = CommandRunner.root + "/Tests/PushlineCLITests/Inputs/"
    let digest = CommandRunner.root + "/pipelines/daily-digest.yaml"
    let paced = CommandRunner.root + "/Tests/PushlineCLITests/Inputs/e2e/digest-paced.yaml"

    /// The paced pipeline at 150 sends a second instead of 400: for tests that start a second process while the first
    /// sends, so the first still has most of its rows to go when the second starts, even on a loaded machine.
    func slowPacedText() throws -> String {
        try String(contentsOfFile: paced, encoding: .utf8).replacingOccurrences(
            of: "rate: \"400\"", with: "rate: \"150\"")
    }

    /// A scratch directory with a journal path, a devices CSV and a rows CSV for `count` users.
    struct Scratch {
        let directory: String
        /// The run journal: a SQLite file in `directory`, or a PostgreSQL database.
        var journal: String
        var rows: String { directory + "/rows.csv" }
        var devices: String { directory + "/devices.csv" }

        init(users count: Int, badRows: [Int: String] = [:], journal kind: JournalKind = .sqlite) async throws {
            directory = TestScratch.root.appendingPathComponent("digest-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            journal = try await kind.make(directory)
            let devices = (1...count).map { "dev-\($0),apns,\(String(format: "%064X", $0)),digest,u-\($0)" }
            try ("installationId,platform,pushChannel,tags,userId\n" + devices.joined(separator: "\n") + "\n")
                .write(toFile: self.devices, atomically: true, encoding: .utf8)
            let rows = (1...count).map { badRows[$0] ?? "u-\($0),\"Digest for user \($0), day 1\"" }
            try ("userId,headline\n" + rows.joined(separator: "\n") + "\n").write(
                toFile: self.rows, atomically: true, encoding: .utf8)
        }
    }

    func emulator(config: String? = nil) async throws -> (PushlineProcess, String, String) {
        let emulator = try await EmulatorProcess.start(config.map { ["--config", inputs + $0] } ?? [])
        return (emulator.process, emulator.base, try #require(emulator.connections.first { $0.contains("Full") }))
    }

    func environment(_ scratch: Scratch, _ connection: String) -> [String: String] {
        [
            "NH_CONNECTION": connection, "NH_HUB": "myhub", "DIGEST_ROWS": scratch.rows, "DEVICES": scratch.devices,
            "PUSHLINE_JOURNAL": scratch.journal,
        ]
    }

    func register(_ scratch: Scratch, _ connection: String) async throws {
        let run = try PushlineProcess(
            ["run", inputs + "e2e/digest-devices.yaml", "--quiet"],
            environment: environment(scratch, connection).merging([
                "PUSHLINE_JOURNAL": scratch.directory + "/register.sqlite"
            ]) { $1 })
        // A safety net, not a measure: 20,000 registrations on a machine running other suites may take minutes.
        #expect(try await run.waitForExit(timeout: 300) == 0, "\(run.stdout)")
    }

    /// Deliveries per installation id.
    func deliveries(_ base: String) async throws -> [String: Int] {
        let text = try await http("GET", "\(base)_emulator/deliveries").1
        let list = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
        var counts: [String: Int] = [:]
        for delivery in list { counts[delivery["installationId"] as? String ?? "?", default: 0] += 1 }
        return counts
    }

    func waitForDeliveries(_ base: String, atLeast count: Int, timeout: Double = 60) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try await deliveries(base).values.reduce(0, +) >= count { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("fewer than \(count) deliveries after \(timeout) s")
    }

    func items(_ report: String) throws -> [String: Int] {
        let json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let step = (json?["steps"] as? [[String: Any]])?.first
        return (step?["items"] as? [String: Int]) ?? [:]
    }

    @Test func fiveThousandRowsUnderFaultsAreDeliveredExactlyOnce() async throws {
        let scratch = try await Scratch(users: 5000)
        let (emulator, base, connection) = try await emulator(config: "emulator-batch-faults.yaml")
        try await register(scratch, connection)
        let report = scratch.directory + "/report.json"
        let first = try PushlineProcess(
            ["run", digest, "--report", report, "--metrics", scratch.directory + "/pushline.prom"],
            environment: environment(scratch, connection))
        let status = try await first.waitForExit(timeout: 300)
        let counts = try items(report)
        // Dropped connections leave sends whose fate the client cannot know: reported unknown, not resent.
        // A send that met faults on every retry is a retriable failure.
        #expect(
            status == (counts["unknown", default: 0] + counts["failed", default: 0] == 0 ? 0 : 3),
            "\(first.stdout.suffix(2000))")
        #expect(counts["accepted", default: 0] + counts["unknown", default: 0] + counts["failed", default: 0] == 5000)
        #expect(counts["accepted", default: 0] > 4500)
        let metrics = try String(contentsOfFile: scratch.directory + "/pushline.prom", encoding: .utf8)
        #expect(
            metrics.contains(
                "pushline_items{pipeline=\"daily-digest\",step=\"1\",kind=\"send\",state=\"accepted\"} \(counts["accepted"] ?? -1)"
            ))
        // The emulator dropped those before delivering; resuming with --resend-unknown completes the digest
        // (a resumed run may meet faults too, so it is started again until it completes).
        var finished = status == 0
        for _ in 0..<5 where !finished {
            let again = try PushlineProcess(
                ["run", digest, "--resend-unknown", "--quiet"], environment: environment(scratch, connection))
            finished = try await again.waitForExit(timeout: 300) == 0
        }
        #expect(finished)
        let delivered = try await deliveries(base)
        #expect(delivered.count == 5000)
        #expect(delivered.values.allSatisfy { $0 == 1 }, "a device received the digest more than once")
        #expect(try await emulator.stop() == 0)
    }

    @Test(arguments: JournalKind.all)
    func aRunKilledHalfWayResumesWithoutSendingTwiceAndReportsTheUnknown(_ kind: JournalKind) async throws {
        let scratch = try await Scratch(users: 5000, journal: kind)
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        let first = try PushlineProcess(["run", paced, "--quiet"], environment: environment(scratch, connection))
        try await waitForDeliveries(base, atLeast: 1500)
        _ = try await first.stop(signal: SIGKILL)
        let before = try await deliveries(base).values.reduce(0, +)
        #expect(before < 5000)
        // Its holder is gone and its lock free: the journal's `running` is shown as abandoned.
        let list = try PushlineProcess(["runs", "list"], environment: environment(scratch, connection))
        #expect(try await list.waitForExit() == 0)
        #expect(list.stdout.contains("abandoned"), "\(list.stdout)")

        let report = scratch.directory + "/report.json"
        let second = try PushlineProcess(
            ["run", paced, "--report", report, "--quiet"], environment: environment(scratch, connection))
        let status = try await second.waitForExit(timeout: 120)
        #expect(second.stdout.contains("resuming run"), "\(second.stdout)")
        // A file lock ends only with its process; a PostgreSQL session's lock can also lapse while its process stands still.
        let abandoned =
            kind.description == "SQLite"
            ? "abandoned: its process \(first.process.processIdentifier) is gone"
            : "abandoned: its process \(first.process.processIdentifier) no longer holds the lock (it ended, or stood still"
        #expect(second.stdout.contains(abandoned), "\(second.stdout)")
        let counts = try items(report)
        #expect(status == (counts["unknown"] == 0 ? 0 : 3))
        // Outcomes are journalled in groups (64 items or 100 ms), so those in flight and those not yet
        // flushed when the kill came are `sending`, reported unknown: never resent.
        #expect(counts["skipped", default: 0] >= 1500 - 8 - 64)
        #expect(counts["skipped", default: 0] + counts["accepted", default: 0] + counts["unknown", default: 0] == 5000)
        let delivered = try await deliveries(base)
        #expect(delivered.values.allSatisfy { $0 == 1 }, "a device received the digest twice")
        // Only rows the killed run had in flight (reported unknown) may be missing.
        #expect(5000 - delivered.count <= counts["unknown", default: 0])
        #expect(try await emulator.stop() == 0)
    }

    @Test(arguments: JournalKind.all)
    func aSecondRunAtOnceExits75AndSIGTERMLeavesAResumableJournal(_ kind: JournalKind) async throws {
        let scratch = try await Scratch(users: 3000, journal: kind)
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        let paced = scratch.directory + "/digest-paced.yaml"
        try slowPacedText().write(toFile: paced, atomically: true, encoding: .utf8)
        let first = try PushlineProcess(["run", paced, "--quiet"], environment: environment(scratch, connection))
        try await waitForDeliveries(base, atLeast: 300)
        // The refused invocation writes its own report, and leaves the running run's metrics file alone (and says so).
        let (report, metrics) = (scratch.directory + "/second.json", scratch.directory + "/pushline.prom")
        try "pushline_run_status{pipeline=\"the running run's\"} 1\n".write(
            toFile: metrics, atomically: true, encoding: .utf8)
        let second = try PushlineProcess(
            ["run", paced, "--quiet", "--report", report, "--metrics", metrics],
            environment: environment(scratch, connection))
        #expect(try await second.waitForExit() == 75)
        #expect(second.stdout.contains("another run of"), "\(second.stdout)")
        #expect(second.stdout.contains("pid \(first.process.processIdentifier)"), "\(second.stdout)")
        #expect(second.stdout.contains("pushline: --metrics '\(metrics)' left as it is"), "\(second.stdout)")
        #expect(
            try String(contentsOfFile: metrics, encoding: .utf8)
                == "pushline_run_status{pipeline=\"the running run's\"} 1\n")
        let refused = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        #expect(refused["status"] as? String == "locked" && refused["exitCode"] as? Int == 75, "\(refused)")
        #expect(
            (refused["message"] as? String)?.contains("pid \(first.process.processIdentifier)") == true, "\(refused)")

        #expect(try await first.stop(signal: SIGTERM) == 143)
        #expect(first.stdout.contains("run the same command again to resume run"), "\(first.stdout)")
        let stopped = try await deliveries(base).values.reduce(0, +)
        #expect(stopped < 3000)

        let resumed = try PushlineProcess(["run", paced, "--quiet"], environment: environment(scratch, connection))
        #expect(try await resumed.waitForExit(timeout: 120) == 0, "\(resumed.stdout.suffix(2000))")
        let delivered = try await deliveries(base)
        #expect(delivered.count == 3000)
        #expect(delivered.values.allSatisfy { $0 == 1 })
        #expect(try await emulator.stop() == 0)
    }

    @Test func malformedRowsStopTheRunWithTheirLineAndAFixedRunCompletesOnce() async throws {
        let scratch = try await Scratch(users: 20, badRows: [4: "u-4,\"unclosed\"x", 9: "bad user,Hi"])
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        let first = try PushlineProcess(["run", digest, "--quiet"], environment: environment(scratch, connection))
        #expect(try await first.waitForExit() == 2)
        #expect(first.stdout.contains("\(scratch.rows):5"), "\(first.stdout)")
        #expect(first.stdout.contains("audience '$UserId:{bad user}' is not a valid tag expression"), "\(first.stdout)")
        #expect(try await deliveries(base).isEmpty, "the input check stops the run before its first send")

        // The journal tells what happened, by run id.
        let list = try PushlineProcess(["runs", "list"], environment: environment(scratch, connection))
        #expect(try await list.waitForExit() == 0)
        let runId = try #require(list.stdout.split(separator: " ").first.map(String.init))
        #expect(
            list.stdout.contains("rejected") && list.stdout.contains("exit 2") && list.stdout.contains("daily-digest"),
            "\(list.stdout)")
        let show = try PushlineProcess(
            ["runs", "show", String(runId.prefix(17))], environment: environment(scratch, connection))
        #expect(try await show.waitForExit() == 0)
        #expect(show.stdout.contains("run \(runId): rejected (exit 2)"), "\(show.stdout)")
        let missing = try PushlineProcess(["runs", "show", "nope"], environment: environment(scratch, connection))
        #expect(try await missing.waitForExit() == 2)
        #expect(missing.stdout.contains("no run 'nope'"))

        // Started again unchanged, it stops again; nothing is sent.
        let again = try PushlineProcess(["run", digest, "--quiet"], environment: environment(scratch, connection))
        #expect(try await again.waitForExit() == 2)
        #expect(try await deliveries(base).isEmpty)

        let fixed = try await Scratch(users: 20)
        try FileManager.default.removeItem(atPath: scratch.rows)
        try FileManager.default.copyItem(atPath: fixed.rows, toPath: scratch.rows)
        let complete = try PushlineProcess(["run", digest, "--quiet"], environment: environment(scratch, connection))
        #expect(try await complete.waitForExit() == 0)
        let repeated = try PushlineProcess(["run", digest, "--quiet"], environment: environment(scratch, connection))
        #expect(try await repeated.waitForExit() == 0)
        #expect(repeated.stdout.contains("already completed"), "\(repeated.stdout)")
        #expect(repeated.stdout.contains("nothing sent"))
        let delivered = try await deliveries(base)
        #expect(delivered.count == 20 && delivered.values.allSatisfy { $0 == 1 })
        #expect(try await emulator.stop() == 0)
    }

    @Test func aRegisterRunKilledHalfWayResumesWithoutCreatingARegistrationTwice() async throws {
        let scratch = try await Scratch(users: 1)
        let users = scratch.directory + "/users.csv"
        let count = 2000
        try ("userId,token\n" + (1...count).map { "u-\($0),fcm-token-\($0):APA91b" }.joined(separator: "\n") + "\n")
            .write(toFile: users, atomically: true, encoding: .utf8)
        let (emulator, base, connection) = try await emulator()
        let pipeline = inputs + "e2e/register-users.yaml"
        let env = environment(scratch, connection).merging(["USERS": users]) { $1 }
        // About 150 devices a second (two requests each at 300/s): killed a few hundred in, counted in its journal.
        let first = try PushlineProcess(["run", pipeline, "--quiet"], environment: env)
        try await waitForJournalItems(scratch.journal, atLeast: 300, of: first)
        _ = try await first.stop(signal: SIGKILL)

        let report = scratch.directory + "/register-report.json"
        let second = try PushlineProcess(["run", pipeline, "--report", report, "--quiet"], environment: env)
        #expect(try await second.waitForExit(timeout: 120) == 0, "\(second.stdout.suffix(2000))")
        #expect(second.stdout.contains("resuming run"), "\(second.stdout)")
        let counts = try items(report)
        #expect(counts["skipped", default: 0] > 0)
        #expect(counts["skipped", default: 0] + counts["accepted", default: 0] == count)

        // One broadcast reaches every registration once: a registration created twice would get it twice.
        let broadcast = try PushlineProcess(["run", inputs + "e2e/broadcast.yaml", "--quiet"], environment: env)
        #expect(try await broadcast.waitForExit(timeout: 60) == 0, "\(broadcast.stdout)")
        try await waitForDeliveries(base, atLeast: count)
        let text = try await http("GET", "\(base)_emulator/deliveries").1
        let list = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
        var perHandle: [String: Int] = [:]
        for delivery in list { perHandle[delivery["pushChannel"] as? String ?? "?", default: 0] += 1 }
        #expect(perHandle.count == count)
        #expect(perHandle.values.allSatisfy { $0 == 1 }, "a handle was registered more than once")
        #expect(try await emulator.stop() == 0)
    }
}
