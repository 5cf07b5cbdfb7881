import CommandTestSupport
import Foundation
import Testing

/// `pushline check` against the real emulator: each hub proven with harmless requests, the plan, and an exit
/// code that is 0 only when a live run would start.
extension BatchRunProcessTests {
    @Test func checkProvesTheKeyTheHubAndTheRightsAndSendsNothing() async throws {
        let scratch = try await Scratch(users: 3)
        let (emulator, base, connection) = try await emulator()
        let ready = try PushlineProcess(["check", digest], environment: environment(scratch, connection))
        #expect(try await ready.waitForExit() == 0, "\(ready.stdout)")
        #expect(ready.stdout.contains("✓ the key is accepted and the hub exists"), "\(ready.stdout)")
        #expect(ready.stdout.contains("✓ Send (send): proven without sending"), "\(ready.stdout)")
        #expect(ready.stdout.contains("3 records in '\(scratch.rows)' = 3 would be sent"), "\(ready.stdout)")
        #expect(ready.stdout.contains("run: a live run would start a new run"))
        #expect(ready.stdout.hasSuffix("ready: a live run would start\n"))
        let key = try #require(connection.split(separator: "SharedAccessKey=").last.map(String.init))
        #expect(!ready.stdout.contains(key) && !ready.stdout.contains("sig="))
        #expect(try await deliveries(base).isEmpty, "check sends nothing")

        // A Listen-only key cannot send: said plainly, exit 1.
        let banner = emulator.stdout
        let listen = try #require(
            banner.split(separator: "\n").first { $0.contains("Endpoint=") && $0.contains("Listen") }
        )
        .trimmingCharacters(in: .whitespaces)
        let refused = try PushlineProcess(["check", digest], environment: environment(scratch, listen))
        #expect(try await refused.waitForExit() == 1, "\(refused.stdout)")
        #expect(refused.stdout.contains("✗ Send (send): the key's policy does not grant it"), "\(refused.stdout)")

        // A hub that does not exist.
        let missing = try PushlineProcess(
            ["check", digest], environment: environment(scratch, connection).merging(["NH_HUB": "nohub"]) { $1 })
        #expect(try await missing.waitForExit() == 1)
        #expect(missing.stdout.contains("✗ the hub 'nohub' does not exist"), "\(missing.stdout)")

        // Malformed rows: a live run would be rejected.
        try rewriteRows(scratch, users: 3, badRows: [2: "u-2,\"open"])
        let rejected = try PushlineProcess(["check", digest], environment: environment(scratch, connection))
        #expect(try await rejected.waitForExit() == 2, "\(rejected.stdout)")
        #expect(rejected.stdout.contains("\(scratch.rows):3: a quoted field opens on this line"), "\(rejected.stdout)")

        // After the run completed, a live run would send nothing.
        try rewriteRows(scratch, users: 3)
        try await register(scratch, connection)
        let run = try PushlineProcess(["run", digest, "--quiet"], environment: environment(scratch, connection))
        #expect(try await run.waitForExit() == 0)
        let done = try PushlineProcess(["check", digest], environment: environment(scratch, connection))
        #expect(try await done.waitForExit() == 0)
        #expect(
            done.stdout.contains("completed at") && done.stdout.contains("a live run would send nothing"),
            "\(done.stdout)")
        #expect(
            done.stdout.hasSuffix("done: the same data completed; a live run would send nothing\n"), "\(done.stdout)")
        #expect(
            done.stdout.contains("[1/1] send: not run: the sources gave the rows run"),
            "the plan read the file and found the rows a completed run sent: \(done.stdout)")
        #expect(try await emulator.stop() == 0)
    }

    @Test func checkOfOnePartPlansItsRowsAndKnowsItsRunAndTheSplit() async throws {
        let scratch = try await Scratch(users: 40)
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        let env = environment(scratch, connection)
        let before = try PushlineProcess(["check", digest, "--shard", "1/4", "--trace"], environment: env)
        #expect(try await before.waitForExit() == 0, "\(before.stdout)")
        // --trace shows the harmless probes as sent, the signature redacted.
        #expect(
            before.stdout.contains("GET http://127.0.0.1:") && before.stdout.contains("→ 404 (1 attempt)"),
            "\(before.stdout)")
        #expect(before.stdout.contains("sig=<redacted>&"), "\(before.stdout)")
        let plan = try #require(
            before.stdout.split(separator: "\n").first { $0.contains("40 records in") }, "\(before.stdout)")
        #expect(plan.contains("would be sent") && plan.contains("for other shards"), "\(plan)")
        #expect(before.stdout.contains("run: a live run would start a new run of part 1/4"), "\(before.stdout)")

        let part = try PushlineProcess(["run", digest, "--shard", "1/4", "--quiet"], environment: env)
        #expect(try await part.waitForExit() == 0, "\(part.stdout)")
        let done = try PushlineProcess(["check", digest, "--shard", "1/4"], environment: env)
        #expect(try await done.waitForExit() == 0, "\(done.stdout)")
        #expect(
            done.stdout.hasSuffix("done: the same data completed; a live run would send nothing\n"), "\(done.stdout)")
        let other = try PushlineProcess(["check", digest, "--shard", "2/4"], environment: env)
        #expect(try await other.waitForExit() == 0, "\(other.stdout)")
        #expect(other.stdout.contains("a live run would start a new run of part 2/4"), "\(other.stdout)")
        // Part 1 ran to its end, so a run of every row is a new run (its keys hold back what part 1 sent).
        let whole = try PushlineProcess(["check", digest], environment: env)
        #expect(try await whole.waitForExit() == 0, "\(whole.stdout)")
        #expect(
            whole.stdout.contains("run: a live run would start a new run, reading its sources now"), "\(whole.stdout)")
        let planned = try #require(
            plan.split(separator: "= ").last?.split(separator: " ").first.flatMap { Int($0) }, "\(plan)")
        #expect(
            try await deliveries(base).count == planned, "only part 1's run sent, as planned, and check sent nothing")
        #expect(try await emulator.stop() == 0)
    }

    @Test func aReaderThatGoesAwayEndsTheProcessQuietlyBySIGPIPE() async throws {
        let process = Process()
        process.executableURL = PushlineProcess.executable
        process.arguments = ["schema"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.closeFile()
        try process.run()
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(
            process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGPIPE,
            "\(process.terminationStatus)")
        #expect(!stderr.contains("Fatal error") && !stderr.contains("crashed"), "\(stderr)")
    }
}
