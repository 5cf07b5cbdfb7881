import CommandTestSupport
import Foundation
import Testing

/// Runs an operator can trust (issue #14), end to end: the real `pushline` against the real emulator.
/// Fixing a row and running again sends only that row; a tag send already made is not made again; a
/// malformed row stops the run before any send and names the lines a stray quote would swallow; with
/// `bad-rows: skip` the totals reconcile with the file; a dry run is not paced; a killed run is
/// abandoned; `runs resolve` closes a partial run; `runs find` answers whether a user got a digest.
extension BatchRunProcessTests {
    var weekly: String { inputs + "e2e/weekly-and-digest.yaml" }

    func rewriteRows(_ scratch: Scratch, users: Int, badRows: [Int: String] = [:]) throws {
        let rows = (1...users).map { badRows[$0] ?? "u-\($0),\"Digest for user \($0), day 1\"" }
        try ("userId,headline\n" + rows.joined(separator: "\n") + "\n").write(
            toFile: scratch.rows, atomically: true, encoding: .utf8)
    }

    func report(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
    }

    func stepItems(_ report: [String: Any], _ index: Int) -> [String: Int] {
        ((report["steps"] as? [[String: Any]])?[index]["items"] as? [String: Int]) ?? [:]
    }

    @Test func anUnterminatedQuoteStopsTheRunBeforeAnySendAndNamesTheLinesItWouldSwallow() async throws {
        let scratch = try await Scratch(users: 20, badRows: [4: "u-4,\"unterminated quote"])
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        let first = try PushlineProcess(["run", digest, "--quiet"], environment: environment(scratch, connection))
        #expect(try await first.waitForExit() == 2, "\(first.stdout)")
        // Line 5 opens the quote; row u-5's quoted headline on line 6 would close it.
        #expect(
            first.stdout.contains("\(scratch.rows):5: a quoted field opens on this line and is not closed properly"),
            "\(first.stdout)")
        #expect(
            first.stdout.contains("it would swallow line 6, which are read as rows of their own"), "\(first.stdout)")
        #expect(
            first.stdout.contains("1 of 20 records in '\(scratch.rows)' is malformed; nothing was sent"),
            "\(first.stdout)")
        #expect(first.stdout.contains("result: rejected"), "\(first.stdout)")
        #expect(try await deliveries(base).isEmpty)

        try rewriteRows(scratch, users: 20)
        let fixed = try PushlineProcess(["run", digest, "--quiet"], environment: environment(scratch, connection))
        #expect(try await fixed.waitForExit() == 0, "\(fixed.stdout)")
        #expect(fixed.stdout.contains("20 records in '\(scratch.rows)' = 20 accepted"), "\(fixed.stdout)")
        let repeated = try PushlineProcess(["run", digest, "--quiet"], environment: environment(scratch, connection))
        #expect(try await repeated.waitForExit() == 0)
        #expect(
            repeated.stdout.contains("already completed") && repeated.stdout.contains("nothing sent"),
            "\(repeated.stdout)")
        let delivered = try await deliveries(base)
        #expect(delivered.count == 20 && delivered.values.allSatisfy { $0 == 1 })
        #expect(try await emulator.stop() == 0)
    }

    @Test func fixingBadRowsAndRunningAgainSendsOnlyThoseRowsAndNotTheTagSendAgain() async throws {
        let bad = [4: "u-4,\"unclosed\"x", 9: ",Hi", 10: ",Hi", 11: ",Hi"]
        let scratch = try await Scratch(users: 20, badRows: bad)
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        let reportPath = scratch.directory + "/first.json"
        let first = try PushlineProcess(
            ["run", weekly, "--quiet", "--report", reportPath], environment: environment(scratch, connection))
        #expect(try await first.waitForExit() == 3, "\(first.stdout)")
        // Every record is accounted for: 16 accepted + 4 bad = 20, and the report says so.
        #expect(first.stdout.contains("20 records in '\(scratch.rows)' = 16 accepted + 4 bad"), "\(first.stdout)")
        #expect(first.stdout.contains("result: partial — 16 accepted, 4 bad"), "\(first.stdout)")
        let firstReport = try report(reportPath)
        let runId = try #require(firstReport["runId"] as? String)
        #expect(first.stdout.contains("run: \(runId)"))
        #expect(stepItems(firstReport, 1)["accepted"] == 16 && stepItems(firstReport, 1)["bad"] == 4)
        #expect(try await deliveries(base).values.reduce(0, +) == 20 + 16)

        // `runs show` groups the three blank user ids into one reason with a count and the first rows.
        let show = try PushlineProcess(["runs", "show", runId], environment: environment(scratch, connection))
        #expect(try await show.waitForExit() == 0)
        #expect(
            show.stdout.contains("bad ×3 (step 2 send): audience '$UserId:{}' is not a valid tag expression"),
            "\(show.stdout)")
        #expect(show.stdout.contains("e.g. \(scratch.rows):10"), "\(show.stdout)")
        let items = try PushlineProcess(
            ["runs", "show", runId, "--items", "--state", "bad", "--format", "json"],
            environment: environment(scratch, connection))
        #expect(try await items.waitForExit() == 0)
        let listed = try JSONSerialization.jsonObject(with: Data(items.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(listed.map { $0["origin"] as? String } == [5, 10, 11, 12].map { "\(scratch.rows):\($0)" })

        // The operator fixes the rows and runs the same command: only the four fixed rows go out.
        try rewriteRows(scratch, users: 20)
        let secondReport = scratch.directory + "/second.json"
        let second = try PushlineProcess(
            ["run", weekly, "--quiet", "--report", secondReport], environment: environment(scratch, connection))
        #expect(try await second.waitForExit() == 0, "\(second.stdout)")
        #expect(second.stdout.contains("not sent: already sent by run \(runId)"), "\(second.stdout)")
        #expect(
            second.stdout.contains("20 records in '\(scratch.rows)' = 4 accepted + 16 already sent"), "\(second.stdout)"
        )
        #expect(stepItems(try report(secondReport), 1)["duplicates"] == 16)
        let delivered = try await deliveries(base)
        #expect(delivered.values.reduce(0, +) == 20 + 20, "the tag send once, the digest once per user")
        #expect(delivered.values.allSatisfy { $0 == 2 })

        // "Did user u-4 get the digest?" The journal answers from the user id.
        let find = try PushlineProcess(
            ["runs", "find", "u-4", "--pipeline", weekly, "--since", "1h"],
            environment: environment(scratch, connection))
        #expect(try await find.waitForExit() == 0)
        #expect(find.stdout.contains("accepted") && find.stdout.contains("$UserId:{u-4}"), "\(find.stdout)")
        // By its line: the first run's bad row and the second run's accepted one.
        let line = try PushlineProcess(
            ["runs", "find", "\(scratch.rows):5"], environment: environment(scratch, connection))
        #expect(try await line.waitForExit() == 0)
        #expect(line.stdout.contains("  bad  ") && line.stdout.contains("  accepted  "), "\(line.stdout)")

        // --again sends everything and says how many had been sent already.
        let again = try PushlineProcess(
            ["run", weekly, "--quiet", "--again"], environment: environment(scratch, connection))
        #expect(try await again.waitForExit() == 0, "\(again.stdout)")
        #expect(again.stdout.contains("--again: 20 of these had been sent by an earlier run"), "\(again.stdout)")
        #expect(try await deliveries(base).values.reduce(0, +) == 80)
        #expect(try await emulator.stop() == 0)
    }

    @Test func aDryRunOfFiveThousandPacedRowsIsNotPacedAndNeverSaysAccepted() async throws {
        let scratch = try await Scratch(users: 5000)
        let connection =
            "Endpoint=sb://contoso-nh.servicebus.windows.net/;SharedAccessKeyName=Full;SharedAccessKey=not-a-secret"
        let reportPath = scratch.directory + "/dry.json"
        let dry = try PushlineProcess(
            ["run", inputs + "e2e/digest-rate25.yaml", "--dry-run", "--log-level", "info", "--report", reportPath],
            environment: environment(scratch, connection))
        // At 25 requests a second, 5,000 rows would take 200 s; a dry run sends nothing and waits for nothing.
        #expect(try await dry.waitForExit(timeout: 60) == 0, "\(dry.stdout.suffix(2000))")
        #expect(dry.stdout.contains("would send template notifications"), "\(dry.stdout.suffix(2000))")
        #expect(
            dry.stdout.contains("5,000 records in '\(scratch.rows)' = 5,000 would be sent"),
            "\(dry.stdout.suffix(2000))")
        #expect(
            dry.stdout.contains("\"planned\":5000"),
            "the log line counts planned sends, as a number: \(dry.stdout.suffix(2000))")
        #expect(!dry.stdout.contains("accepted"), "\(dry.stdout.suffix(2000))")
        let step = try #require((try report(reportPath)["steps"] as? [[String: Any]])?.first)
        let requests = (step["data"] as? [String: Any])?["requests"] as? [[String: Any]] ?? []
        #expect(requests.count == 100 && requests.allSatisfy { $0["outcome"] as? String == "planned" })
        let items = stepItems(try report(reportPath), 0)
        #expect(items["planned"] == 5000 && items["accepted"] == 0)
    }

    @Test func runsResolveSettlesUnknownItemsAndEndsThePartialRun() async throws {
        let scratch = try await Scratch(users: 3)
        let (emulator, _, connection) = try await emulator(config: "emulator-ambiguous.yaml")
        try await register(scratch, connection)
        let reportPath = scratch.directory + "/report.json"
        let first = try PushlineProcess(
            ["run", digest, "--quiet", "--report", reportPath], environment: environment(scratch, connection))
        #expect(try await first.waitForExit() == 3, "\(first.stdout)")
        let runId = try #require(try report(reportPath)["runId"] as? String)
        #expect(stepItems(try report(reportPath), 0)["unknown"] == 3)
        // Started again: the partial run ran to its end, so this is a new run, in which the items the first left of
        // unknown fate stay unknown (pointing at it), not resent by guesswork.
        let again = try PushlineProcess(["run", digest, "--quiet"], environment: environment(scratch, connection))
        #expect(try await again.waitForExit() == 3)
        #expect(again.stdout.contains("left of unknown fate by run \(runId)"), "\(again.stdout)")

        let resolve = try PushlineProcess(
            ["runs", "resolve", runId, "--delivered", "--by", "alice", "--note", "checked telemetry"],
            environment: environment(scratch, connection))
        #expect(try await resolve.waitForExit() == 0, "\(resolve.stdout)")
        #expect(resolve.stdout.contains("3 unknown items settled as delivered by alice"), "\(resolve.stdout)")
        #expect(resolve.stdout.contains("it is now completed"), "\(resolve.stdout)")
        let items = try PushlineProcess(
            ["runs", "show", runId, "--items", "--format", "json"], environment: environment(scratch, connection))
        #expect(try await items.waitForExit() == 0)
        let listed = try JSONSerialization.jsonObject(with: Data(items.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(listed.count == 3)
        #expect(
            listed.allSatisfy {
                ($0["state"] as? String) == "accepted"
                    && ($0["resolution"] as? String)?.contains("settled by alice") == true
            })
        let closed = try PushlineProcess(["run", digest, "--quiet"], environment: environment(scratch, connection))
        #expect(try await closed.waitForExit() == 0, "\(closed.stdout)")
        #expect(
            closed.stdout.contains("3 already sent"),
            "settled as delivered, the items hold their keys: \(closed.stdout)")
        #expect(try await emulator.stop() == 0)
    }

    @Test func declaredKeysBelongToTheirStepAndHoldAcrossRuns() async throws {
        let scratch = try await Scratch(users: 5)
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        let pipeline = inputs + "e2e/two-steps-one-key.yaml"
        let first = try PushlineProcess(["run", pipeline, "--quiet"], environment: environment(scratch, connection))
        #expect(try await first.waitForExit() == 0, "\(first.stdout)")
        #expect(
            try await deliveries(base).values.reduce(0, +) == 10,
            "both steps send: the same key in two steps is two notifications")

        // A changed file is a new run; the declared keys still say every row was sent.
        try rewriteRows(scratch, users: 5)
        try (String(contentsOfFile: scratch.rows, encoding: .utf8) + "\n").write(
            toFile: scratch.rows, atomically: true, encoding: .utf8)
        let second = try PushlineProcess(["run", pipeline, "--quiet"], environment: environment(scratch, connection))
        #expect(try await second.waitForExit() == 0, "\(second.stdout)")
        #expect(second.stdout.contains("5 records in '\(scratch.rows)' = 5 already sent"), "\(second.stdout)")
        #expect(try await deliveries(base).values.reduce(0, +) == 10)

        let find = try PushlineProcess(
            ["runs", "find", "digest-u-3", "--format", "json"], environment: environment(scratch, connection))
        #expect(try await find.waitForExit() == 0)
        let found = try JSONSerialization.jsonObject(with: Data(find.stdout.utf8)) as? [[String: Any]] ?? []
        let keys = found.compactMap { ($0["item"] as? [String: Any])?["key"] as? String }
        #expect(
            Set(keys) == ["two-steps-one-key/step1:digest-u-3", "two-steps-one-key/step2:digest-u-3"], "\(find.stdout)")
        #expect(found.count == 4, "two steps, two runs: \(find.stdout)")
        #expect(try await emulator.stop() == 0)
    }
}
