import CommandTestSupport
import Foundation
import Testing

/// A pipeline is who it is, not where its file lies: a fixed input run again from another checkout sends only what
/// was fixed, two runs that overlap send each notification once, and two unrelated pipelines that share a file name
/// neither lock out nor deduplicate each other.
extension BatchRunProcessTests {
    /// The fixable digest copied into `checkout-NAME/pipelines/digest.yaml` under the scratch directory, with `extra`
    /// lines added at the top (a `name:`).
    func checkout(_ scratch: Scratch, _ name: String, extra: String = "") throws -> String {
        let directory = scratch.directory + "/checkout-\(name)/pipelines"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let text = try String(contentsOfFile: inputs + "e2e/digest-fixable.yaml", encoding: .utf8)
        try (extra + text).write(toFile: directory + "/digest.yaml", atomically: true, encoding: .utf8)
        return directory + "/digest.yaml"
    }

    /// Rewrites the rows file with every row well-formed (the malformed one fixed).
    func fix(_ scratch: Scratch, users: Int) throws {
        let rows = (1...users).map { "u-\($0),\"Digest for user \($0), day 1\"" }
        try ("userId,headline\n" + rows.joined(separator: "\n") + "\n").write(
            toFile: scratch.rows, atomically: true, encoding: .utf8)
    }

    /// Runs `pipeline` to its end and returns its exit status and item counts.
    func runToEnd(_ pipeline: String, _ scratch: Scratch, _ connection: String, extra: [String] = []) async throws -> (
        Int32, [String: Int], String
    ) {
        let report = scratch.directory + "/report-\(UUID().uuidString).json"
        let run = try PushlineProcess(
            ["run", pipeline, "--report", report, "--quiet"] + extra, environment: environment(scratch, connection))
        let status = try await run.waitForExit(timeout: 180)
        return (status, (try? items(report)) ?? [:], run.stdout)
    }

    @Test(arguments: JournalKind.all, [false, true])
    func aFixedRowRunAgainFromTheSameOrAnotherCheckoutIsTheOnlyOneSent(_ kind: JournalKind, elsewhere: Bool)
        async throws
    {
        let users = 3000
        let scratch = try await Scratch(users: users, badRows: [1500: "bad user,Hi"], journal: kind)
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        let first = try checkout(scratch, "a")
        let (status, counts, output) = try await runToEnd(first, scratch, connection)
        #expect(status == 3, "the malformed row makes the run partial: \(output.suffix(1500))")
        #expect(counts["accepted"] == users - 1 && counts["bad"] == 1, "\(counts)")

        try fix(scratch, users: users)
        let second = elsewhere ? try checkout(scratch, "b") : first
        let (again, rerun, rerunOutput) = try await runToEnd(second, scratch, connection)
        #expect(again == 0, "\(rerunOutput.suffix(1500))")
        #expect(rerun["accepted"] == 1 && rerun["duplicates"] == users - 1, "\(rerun)")
        let delivered = try await deliveries(base)
        #expect(delivered.count == users && delivered.values.allSatisfy { $0 == 1 }, "every user exactly once")

        // The re-run journals what it sent, and its skipped rows as ranges: yet `runs find` lists the skipped row (which
        // run sent it) before the row that sent it, and `runs show` counts every skipped row.
        let find = try PushlineProcess(
            ["runs", "find", "u-7", "--pipeline", second, "--format", "json"],
            environment: environment(scratch, connection))
        #expect(try await find.waitForExit() == 0)
        let found = try #require(
            try JSONSerialization.jsonObject(with: Data(find.stdout.utf8)) as? [[String: Any]], "\(find.stdout)")
        let states = found.compactMap { ($0["item"] as? [String: Any])?["state"] as? String }
        #expect(states == ["duplicate", "accepted"], "\(find.stdout)")
        let rerunId = try #require(found.first?["runId"] as? String)
        let reason = (found.first?["item"] as? [String: Any])?["error"] as? String
        #expect(
            reason?.hasPrefix("already sent by run \(found[1]["runId"] as? String ?? "?") (") == true, "\(find.stdout)")
        let show = try PushlineProcess(["runs", "show", rerunId], environment: environment(scratch, connection))
        #expect(try await show.waitForExit() == 0)
        #expect(
            show.stdout.contains("step 1 send: 1 accepted, 2,999 duplicate")
                && show.stdout.contains("duplicate ×2,999 (step 1 send): already sent by run "), "\(show.stdout)")
        #expect(try await emulator.stop() == 0)
    }

    @Test(arguments: JournalKind.all)
    func theFixedInputStartedFromAnotherCheckoutWhileTheFirstStallsWaitsItsTurn(_ kind: JournalKind) async throws {
        let users = 3000
        let scratch = try await Scratch(users: users, badRows: [2900: "bad user,Hi"], journal: kind)
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        let stalled = try PushlineProcess(
            ["run", try checkout(scratch, "a"), "--quiet"], environment: environment(scratch, connection))
        try await waitForDeliveries(base, atLeast: 300)
        kill(stalled.process.processIdentifier, SIGSTOP)
        try fix(scratch, users: users)
        let fixed = try checkout(scratch, "b")
        let (refused, _, refusal) = try await runToEnd(fixed, scratch, connection)
        #expect(refused == 75, "the same pipeline, read from another directory, is still running: \(refusal)")
        #expect(refusal.contains("pid \(stalled.process.processIdentifier)"), "\(refusal)")
        kill(stalled.process.processIdentifier, SIGCONT)
        #expect(try await stalled.waitForExit(timeout: 180) == 3, "\(stalled.stdout.suffix(1500))")

        let (status, counts, output) = try await runToEnd(fixed, scratch, connection)
        #expect(status == 0, "\(output.suffix(1500))")
        #expect(counts["accepted"] == 1 && counts["duplicates"] == users - 1, "\(counts)")
        let delivered = try await deliveries(base)
        #expect(delivered.count == users && delivered.values.allSatisfy { $0 == 1 }, "every user exactly once")
        #expect(try await emulator.stop() == 0)
    }

    @Test(arguments: JournalKind.all)
    func twoPipelinesThatOverlapSendEachNotificationOnce(_ kind: JournalKind) async throws {
        // Two pipelines by name (their locks are their own) that make the same requests to the same hub, sending at
        // once: the default key is the request on that hub, checked as each item is marked sending, so neither sends
        // what the other has, whichever gets to a row first.
        let users = 3000
        let scratch = try await Scratch(users: users, journal: kind)
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        let slow = try checkout(scratch, "a", extra: "name: digest-a\n")
        let text = try String(contentsOfFile: slow, encoding: .utf8).replacingOccurrences(
            of: "rate: \"800\"", with: "rate: \"150\"")
        try text.write(toFile: slow, atomically: true, encoding: .utf8)
        let reportA = scratch.directory + "/report-a.json"
        let first = try PushlineProcess(
            ["run", slow, "--report", reportA, "--quiet"], environment: environment(scratch, connection))
        try await waitForDeliveries(base, atLeast: 300)
        let (status, counts, output) = try await runToEnd(
            try checkout(scratch, "b", extra: "name: digest-b\n"), scratch, connection)
        let firstStatus = try await first.waitForExit(timeout: 180)
        let countsA = try items(reportA)
        // What one run had marked sending when the other reached it waits there until that run settled it: neither
        // reports anything of unknown fate, and everything the other sent is a duplicate.
        #expect(status == 0 && counts["unknown", default: 0] == 0, "\(output)")
        #expect(firstStatus == 0 && countsA["unknown", default: 0] == 0, "\(first.stdout.suffix(1500))")
        #expect(
            counts["duplicates", default: 0] >= 300 - 72 && countsA["duplicates", default: 0] > 0,
            "\(counts) \(countsA)")
        #expect(counts["accepted", default: 0] + countsA["accepted", default: 0] == users, "\(counts) \(countsA)")
        let delivered = try await deliveries(base)
        #expect(delivered.count == users && delivered.values.allSatisfy { $0 == 1 }, "every user exactly once")
        #expect(try await emulator.stop() == 0)
    }

    @Test(arguments: JournalKind.all)
    func twoUnrelatedPipelinesWithOneFileNameNeitherLockNorDeduplicateEachOther(_ kind: JournalKind) async throws {
        let scratch = try await Scratch(users: 20, journal: kind)
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        let keyed = "      idempotency-key: \"digest-$(userId)\"\n"
        let teamA = try checkout(scratch, "a")
        try (try String(contentsOfFile: teamA, encoding: .utf8) + keyed).write(
            toFile: teamA, atomically: true, encoding: .utf8)
        let (statusA, countsA, outputA) = try await runToEnd(teamA, scratch, connection)
        #expect(statusA == 0 && countsA["accepted"] == 20, "\(outputA)")

        // Team B's digest.yaml: another file by the same name, other text, no `name:`. It is not taken for team A's.
        let teamB = try checkout(scratch, "b")
        let text = try String(contentsOfFile: teamB, encoding: .utf8).replacingOccurrences(
            of: "$(headline)", with: "Team B: $(headline)")
        try (text + keyed).write(toFile: teamB, atomically: true, encoding: .utf8)
        let (refused, _, refusal) = try await runToEnd(teamB, scratch, connection)
        #expect(refused == 2, "\(refusal)")
        #expect(
            refusal.contains("add `name: digest`")
                && refusal.contains(scratch.directory + "/checkout-a/pipelines/digest.yaml"), "\(refusal)")
        #expect(try await deliveries(base).values.reduce(0, +) == 20, "nothing was sent")

        // Named, it is its own pipeline: its declared keys are its own, so its digest goes out too.
        try ("name: team-b-digest\n" + text + keyed).write(toFile: teamB, atomically: true, encoding: .utf8)
        let (statusB, countsB, outputB) = try await runToEnd(teamB, scratch, connection)
        #expect(statusB == 0 && countsB["accepted"] == 20, "\(outputB)")
        #expect(try await deliveries(base).values.allSatisfy { $0 == 2 })

        // Team A's file moved to a new release directory, unchanged: the same pipeline, its run completed already.
        let moved = try checkout(scratch, "a-release-2")
        try FileManager.default.copyItem(atPath: teamA, toPath: moved + ".tmp")
        try FileManager.default.removeItem(atPath: moved)
        try FileManager.default.moveItem(atPath: moved + ".tmp", toPath: moved)
        let (statusMoved, _, outputMoved) = try await runToEnd(moved, scratch, connection)
        #expect(statusMoved == 0 && outputMoved.contains("already completed"), "\(outputMoved)")
        #expect(try await emulator.stop() == 0)
    }
}
