import CommandTestSupport
import Foundation
import PipelineCore
import Testing

@testable import PushlineCLI

/// The batch guide's "Night after night" walkthrough, its table and pipeline taken from the guide, run against
/// `pushline emulator` over five nights: night 1 sends all; the same command again sends nothing and still writes its
/// report and metrics; a fixed row sends only itself; night 2 sends only the new rows; night 3 is killed, resumed with
/// its first rows (late rows not sent), and night 4 reads afresh; night 5's source fails and ops still hears of it.
/// The same with a rows plugin and with a CSV export in place of the query (whose night 5, the export missing, stops
/// before any step), each with SQLite and with PostgreSQL as the run store.
///
/// The nights' clocks: the runs of other nights are `pushline` run in this process with a clock of their own (the
/// night's moment); night 3 is the real executable on the real clock, since it is killed with SIGKILL, so the nights
/// are placed around now (two nights before it, two after). (libfaketime cannot move a real process's clock: Swift's
/// sleeps never wake under it.)
struct NightlyOutboxProcessTests {
    /// Where the rows come from.
    enum Source: String, CaseIterable, Sendable, CustomStringConvertible {
        case query, plugin, csv
        var description: String { rawValue }
    }

    @Test("the outbox, night after night", arguments: Source.allCases, JournalKind.all)
    func nights(_ source: Source, _ kind: JournalKind) async throws {
        let runs = PipelineRunProcessTests()
        // The hub's clock is behind the earliest night's, so the tokens of every night are valid there.
        let (emulator, base, strings) = try await runs.emulator(["--clock-offset=-50h"])
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let night = try await Night(source: source, journal: kind, connection: full)
        defer { night.remove() }
        try await night.registerDevices()
        try await walk(night, source: source, base: base, received: { try await Received(base) })
        #expect(try await emulator.stop() == 0)
    }

    /// The nights, `received` reading what the emulator delivered so far.
    private func walk(_ night: Night, source: Source, base: String, received: () async throws -> Received) async throws
    {
        let day = 86400.0
        // Night 3 runs on the real clock: the others are placed around it, at whole seconds.
        let third = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let first = third.addingTimeInterval(-2 * day)

        // Night 1: every row.
        var (status, output) = try await night.run(at: first, report: "night-1")
        #expect(status == 0, "\(output)")
        var now = try await received()
        #expect(
            now.count(of: "3 new replies") == 1 && now.count(of: "Your order shipped") == 1
                && now.count(of: "Weekly summary") == 1,
            "\(now)\n\(output)")
        #expect(now.count(of: "outbox: 3 rows, 3 sent, 0 already sent, 0 unknown (succeeded: )") == 1, "\(now)")
        #expect(
            try night.report("night-1")["startedAt"] as? String == Timestamp.iso8601(first), "the clock is the night's")

        // The same command again: nothing sent, and still a report and metrics that say why.
        (status, output) = try await night.run(at: first.addingTimeInterval(300), report: "again")
        #expect(status == 0, "\(output)")
        #expect(output.contains("already completed"), "\(output)")
        #expect((try night.report("again")["unchanged"] as? String)?.isEmpty == false)
        let metrics = try String(contentsOfFile: night.directory + "/again.prom", encoding: .utf8)
        #expect(metrics.contains("pushline_run_exit_code{pipeline=\"outbox\"} 0"), "\(metrics)")
        #expect(try await received().total == now.total, "the same rows were sent again")

        // A fixed row: only that row.
        try night.sql("update outbox set message = 'Your order shipped today' where user_id = 'bo'")
        (status, output) = try await night.run(at: first.addingTimeInterval(7 * 3600), report: "fix")
        #expect(status == 0, "\(output)")
        var before = now
        now = try await received()
        #expect(now.count(of: "Your order shipped today") == 1 && now.total == before.total + 2, "\(now)")
        #expect(now.count(of: "outbox: 3 rows, 1 sent, 2 already sent, 0 unknown (succeeded: )") == 1, "\(output)")

        // Night 2: only the new rows.
        try night.sql(
            "insert into outbox (user_id, message) values ('ada', 'Night two for ada'), ('cy', 'Night two for cy')")
        (status, output) = try await night.run(at: first.addingTimeInterval(day), report: "night-2")
        #expect(status == 0, "\(output)")
        before = now
        now = try await received()
        #expect(
            now.count(of: "Night two for ada") == 1 && now.count(of: "Night two for cy") == 1
                && now.total == before.total + 3, "\(now)")
        #expect(now.count(of: "outbox: 5 rows, 2 sent, 3 already sent, 0 unknown (succeeded: )") == 1, "\(output)")

        // Night 3, killed half-way; rows arrive meanwhile; the same command resumes with the rows it first read.
        let users = ["ada", "bo", "cy"]
        // 600 rows at the pipeline's 100 a second: the kill lands in the send, not after it, however loaded the machine.
        try night.sql(
            "insert into outbox (user_id, message) values "
                + (1...600).map { "('\(users[$0 % 3])', 'night 3 #\($0).')" }.joined(separator: ", "))
        try await night.kill(base: base, atLeast: now.total + 20)
        try night.sql(
            "insert into outbox (user_id, message) values "
                + (1...5).map { "('\(users[$0 % 3])', 'late #\($0).')" }.joined(separator: ", "))
        // The export runs again first (the CSV now holds the late rows too): the resume reads its copy of the night's file.
        (status, output) = try await night.run(at: nil, report: "resumed")
        #expect(status == 0 || status == 3, "\(output)")
        #expect(output.contains("resuming run"), "\(output)")
        now = try await received()
        let unknown = try night.items("resumed", step: "sent")["unknown", default: 0]
        let sent = (1...600).map { now.count(of: "night 3 #\($0).") }
        #expect(sent.allSatisfy { $0 <= 1 }, "a row of night 3 was sent twice")
        #expect(
            sent.filter { $0 == 0 }.count <= unknown,
            "only rows in flight at the kill may be missing: \(unknown) unknown")
        #expect(now.count(containing: "late #") == 0, "the resumed run read the table again")

        // Night 4 reads afresh: the late rows, and nothing of night 3 again.
        (status, output) = try await night.run(at: third.addingTimeInterval(day), report: "night-4")
        #expect(status == 0 || status == 3, "\(output)")
        before = now
        now = try await received()
        #expect((1...5).allSatisfy { now.count(of: "late #\($0).") == 1 }, "\(output)")
        #expect(
            now.count(containing: "night 3 #") == before.count(containing: "night 3 #"),
            "night 3's rows were sent again")
        #expect(try night.report("night-4")["resumed"] as? Bool != true && output.contains("new run"), "\(output)")

        // Night 5, a CSV export missing: a for-each file is checked before any step runs, so the run stops there
        // (exit 2), sending nothing, not even the summary; its report says why.
        if source == .csv {
            try FileManager.default.removeItem(atPath: night.directory + "/outbox.csv")
            (status, output) = try await night.run(
                at: third.addingTimeInterval(2 * day), report: "night-5", exporting: false)
            #expect(status == 2 && output.contains("/outbox.csv' does not exist"), "\(output)")
            #expect(try night.report("night-5")["status"] as? String == "invalid")
            #expect(try await received().total == now.total, "a step ran without its input")
            return
        }
        // Night 5, the query or the plugin fails: ops hears of it all the same, and the run exits 1.
        try night.sql("alter table outbox rename to outbox_v2")
        (status, output) = try await night.run(at: third.addingTimeInterval(2 * day), report: "night-5")
        #expect(status == 1, "\(output)")
        now = try await received()
        #expect(now.count(containing: "outbox: 0 rows, 0 sent, 0 already sent, 0 unknown (failed: ") == 1, "\(now)")
        #expect(now.count(containing: "no such table: outbox") >= 1, "\(now)")
    }
}

/// What the emulator delivered, by payload.
struct Received: CustomStringConvertible {
    let payloads: [String]

    init(_ base: String) async throws {
        let text = try await http("GET", "\(base)_emulator/deliveries").1
        let list = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
        payloads = list.compactMap { $0["payload"] as? String }
    }

    var total: Int { payloads.count }
    /// Deliveries whose message is exactly `message`.
    func count(of message: String) -> Int { payloads.filter { $0.contains("\"body\":\"\(message)\"") }.count }
    /// Deliveries whose message contains `text`.
    func count(containing text: String) -> Int { payloads.filter { $0.contains(text) }.count }
    var description: String { payloads.joined(separator: "\n") }
}

/// The walkthrough's folder: the guide's table and pipeline (with the rows' source swapped for a plugin or a CSV
/// export), devices for ada, bo, cy and ops, and a journal of the kind asked for.
struct Night {
    let directory: String
    let source: NightlyOutboxProcessTests.Source
    let environment: [String: String]

    init(source: NightlyOutboxProcessTests.Source, journal: JournalKind, connection: String) async throws {
        directory = NSTemporaryDirectory() + "pushline-nightly-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.source = source
        environment = [
            "PUSHLINE_JOURNAL": try await journal.make(directory), "NH_CONNECTION": connection, "NH_HUB": "myhub",
        ]
        let blocks = MarkdownBlocks.blocks(in: "docs/batch-runs.md", marked: "nightly")
        let table = try #require(blocks.first { $0.language == "sql" }).lines.joined(separator: "\n")
        var pipeline = try #require(blocks.first { $0.language == "yaml" }).lines.joined(separator: "\n") + "\n"
        switch source {
        case .query:
            break
        case .plugin:
            let plugin = CommandRunner.root + "/Tests/PushlineCLITests/Inputs/plugins/outbox_rows.py"
            pipeline = pipeline.replacingOccurrences(
                of: "steps:\n  - id: outbox\n    query:\n",
                with:
                    "plugins:\n  outbox-rows: { command: [python3, \(plugin)] }\nsteps:\n  - id: outbox\n    outbox-rows:\n"
            )
        case .csv:
            // The app exports the table before each night's run; the summary reads the send's own status.
            let query = try #require(pipeline.range(of: "  - id: outbox\n"))
            let send = try #require(pipeline.range(of: "  - id: sent\n"))
            pipeline.removeSubrange(query.lowerBound..<send.lowerBound)
            pipeline = pipeline.replacingOccurrences(of: "${steps.outbox.rows}", with: "outbox.csv")
                .replacingOccurrences(
                    of: "${steps.outbox.status}: ${steps.outbox.error}",
                    with: "${steps.sent.status}: ${steps.sent.error}")
        }
        #expect(
            pipeline.contains(
                source == .csv
                    ? "for-each: outbox.csv" : "  - id: outbox\n    \(source == .query ? "query" : "outbox-rows"):"))
        try pipeline.write(toFile: directory + "/outbox.yaml", atomically: true, encoding: .utf8)
        try sql(table)
    }

    /// Runs `statement` on the app's database.
    func sql(_ statement: String) throws {
        try PipelineRunProcessTests.sqlite(directory + "/app.sqlite", statement)
    }

    /// An installation with the digest template for each user, and one tagged `ops`.
    func registerDevices() async throws {
        let template = #"{"digest":{"body":"{\"message\":{\"notification\":{\"body\":\"$(message)\"}}}"}}"#
        let lines =
            ["ada", "bo", "cy"].map {
                #"{"installationId":"phone-\#($0)","platform":"fcmv1","pushChannel":"fcm-token-\#($0)","userId":"\#($0)","templates":\#(template)}"#
            } + [
                #"{"installationId":"ops-1","platform":"fcmv1","pushChannel":"fcm-token-ops","tags":["ops"],"templates":\#(template)}"#
            ]
        try lines.joined(separator: "\n").write(toFile: directory + "/devices.jsonl", atomically: true, encoding: .utf8)
        try """
        version: 1
        hubs:
          app: { connection: "${env:NH_CONNECTION}", hub: "${env:NH_HUB}" }
        steps:
          - register: { hub: app, installations: devices.jsonl }

        """.write(toFile: directory + "/devices.yaml", atomically: true, encoding: .utf8)
        let register = try PushlineProcess(["run", directory + "/devices.yaml"], environment: environment)
        #expect(try await register.waitForExit() == 0, "\(register.stdout)")
    }

    /// The app's nightly export, for the CSV source.
    private func export() throws {
        guard source == .csv else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "sqlite3", "-header", "-csv", directory + "/app.sqlite",
            #"select id, user_id as "userId", message from outbox order by id"#,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try data.write(to: URL(fileURLWithPath: directory + "/outbox.csv"))
    }

    /// Runs the night's command with `--report NAME.json` and `--metrics NAME.prom` (after the app's export, unless
    /// `exporting` is false): in this process with its clock at
    /// `time`, or, when `time` is nil, as the real executable on the real clock. Returns its exit status and output.
    func run(at time: Date?, report: String, exporting: Bool = true) async throws -> (Int32, String) {
        if exporting { try export() }
        let arguments = [
            "run", directory + "/outbox.yaml", "--report", directory + "/\(report).json", "--metrics",
            directory + "/\(report).prom",
        ]
        guard let time else {
            let process = try PushlineProcess(arguments, environment: environment)
            let status = try await process.waitForExit(timeout: 120)
            return (status, process.stdout)
        }
        let result = await CommandRunner.run(arguments, environment: environment, now: time)
        return (result.status, result.err + result.out)
    }

    /// Starts the night's command on the real clock and kills it (SIGKILL) once the emulator at `base` has delivered
    /// `atLeast` notifications in all.
    func kill(base: String, atLeast count: Int) async throws {
        try export()
        let process = try PushlineProcess(["run", directory + "/outbox.yaml"], environment: environment)
        try await BatchRunProcessTests().waitForDeliveries(base, atLeast: count)
        #expect(
            process.process.isRunning && process.stdout.contains("tell ops") == false,
            "the send ended before it could be killed: \(process.stdout)")
        _ = try await process.stop(signal: SIGKILL)
    }

    /// The report written as `NAME.json`.
    func report(_ name: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/\(name).json")))
                as? [String: Any])
    }

    /// The item counts of the step with id `step` in report `name`.
    func items(_ name: String, step: String) throws -> [String: Int] {
        let steps = try #require(try report(name)["steps"] as? [[String: Any]])
        return try #require(steps.first { $0["id"] as? String == step })["items"] as? [String: Int] ?? [:]
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
