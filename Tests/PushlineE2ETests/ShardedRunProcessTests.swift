import CommandTestSupport
import Foundation
import RunStore
import TestSupport
import Testing

/// Sharded batch runs over a shared PostgreSQL journal, as a Kubernetes Indexed Job runs them: the real
/// `pushline run --shard I/N` processes from different working directories against the real emulator.
@Suite(.serialized, .enabled(if: JournalKind.all.count > 1, "needs PUSHLINE_TEST_POSTGRES (.ci/postgres.sh start DIR)"))
struct ShardedRunProcessTests {
    let batch = BatchRunProcessTests()
    let users = 20_000

    /// A working directory of its own, as another pod or machine has.
    func workingDirectory() throws -> String {
        let directory = TestScratch.root.appendingPathComponent("shard-cwd-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    func shard(_ index: Int, _ scratch: BatchRunProcessTests.Scratch, _ connection: String, report: String? = nil)
        throws -> PushlineProcess
    {
        try PushlineProcess(
            ["run", batch.paced, "--shard", "\(index)/4", "--quiet"] + (report.map { ["--report", $0] } ?? []),
            environment: batch.environment(scratch, connection), directory: try workingDirectory())
    }

    @Test func fourShardsFromFourDirectoriesSendEveryRowOnceThroughAKillADuplicateAndARerun() async throws {
        let scratch = try await BatchRunProcessTests.Scratch(users: users, journal: .postgres)
        let (emulator, base, connection) = try await batch.emulator()
        try await batch.register(scratch, connection)

        let reports = (0..<4).map { scratch.directory + "/shard-\($0).json" }
        var shards = try (0..<4).map { try shard($0, scratch, connection, report: reports[$0]) }
        try await batch.waitForDeliveries(base, atLeast: users / 5, timeout: 120)
        // Shard 2's machine dies half-way.
        _ = try await shards[2].stop(signal: SIGKILL)
        // A second pod for shard 1 while the first still runs: turned away, naming the holder.
        let duplicate = try shard(1, scratch, connection)
        #expect(try await duplicate.waitForExit() == 75, "\(duplicate.stdout)")
        #expect(duplicate.stdout.contains("pid \(shards[1].process.processIdentifier)"), "\(duplicate.stdout)")
        // Shard 2 starts again elsewhere (another directory, the same journal) and resumes its own rows.
        shards[2] = try shard(2, scratch, connection, report: reports[2])
        var statuses: [Int32] = []
        for process in shards { statuses.append(try await process.waitForExit(timeout: 240)) }
        #expect(shards[2].stdout.contains("resuming run"), "\(shards[2].stdout)")

        // Every shard's report reconciles with the whole input; together they cover each row once.
        var accepted = 0
        var skipped = 0
        var unknown = 0
        for (index, report) in reports.enumerated() {
            let counts = try batch.items(report)
            let mine = counts["accepted", default: 0] + counts["skipped", default: 0] + counts["unknown", default: 0]
            #expect(mine + counts["otherShards", default: 0] == users, "shard \(index): \(counts)")
            #expect(counts["failed", default: 0] == 0 && counts["bad", default: 0] == 0, "shard \(index): \(counts)")
            #expect(
                statuses[index] == (counts["unknown", default: 0] == 0 ? 0 : 3),
                "shard \(index): \(shards[index].stdout.suffix(1500))")
            accepted += counts["accepted", default: 0]
            skipped += counts["skipped", default: 0]
            unknown += counts["unknown", default: 0]
        }
        #expect(accepted + skipped + unknown == users)
        #expect(skipped > 0, "the restarted shard skipped what its killed attempt had sent")
        let delivered = try await batch.deliveries(base)
        #expect(delivered.values.allSatisfy { $0 == 1 }, "a device received the digest twice")
        // Only rows the killed shard had in flight (reported unknown) may be missing.
        #expect(users - delivered.count <= unknown, "\(users - delivered.count) missing, \(unknown) reported unknown")

        // A completed shard started again sends nothing.
        let before = delivered.values.reduce(0, +)
        let again = try shard(0, scratch, connection)
        #expect(try await again.waitForExit() == 0)
        #expect(again.stdout.contains("shard 0/4 of run"), "\(again.stdout)")
        #expect(try await batch.deliveries(base).values.reduce(0, +) == before)

        // Every part ran to its end, so a start split another way is a new run: the idempotency keys hold back every row
        // the four parts sent, and the rows they left unknown stay unknown.
        let resplit = try PushlineProcess(
            ["run", batch.paced, "--shard", "0/2", "--quiet"], environment: batch.environment(scratch, connection))
        #expect([0, 3].contains(try await resplit.waitForExit()), "\(resplit.stdout)")
        #expect(resplit.stdout.contains("new run") && resplit.stdout.contains("shard 0/2"), "\(resplit.stdout)")
        #expect(try await batch.deliveries(base).values.reduce(0, +) == before, "nothing was sent twice")

        // `runs show` of any shard shows the run's four parts and their counts.
        let list = try PushlineProcess(["runs", "list"], environment: batch.environment(scratch, connection))
        #expect(try await list.waitForExit() == 0)
        let shardRun = try #require(
            list.stdout.split(separator: "\n").first { $0.contains("shard 3/4") }.map { String($0.prefix(22)) })
        let show = try PushlineProcess(["runs", "show", shardRun], environment: batch.environment(scratch, connection))
        #expect(try await show.waitForExit() == 0)
        for index in 0..<4 { #expect(show.stdout.contains("shard \(index)/4  "), "\(show.stdout)") }
        #expect(show.stdout.contains("all shards: "), "\(show.stdout)")
        #expect(try await emulator.stop() == 0)
    }

    @Test func theJournalDatabaseDyingMidRunStopsEveryShardResumablyAndTheyResumeOnceItIsBack() async throws {
        let server = try PrivatePostgres.start()
        defer { server.remove() }
        var scratch = try await BatchRunProcessTests.Scratch(users: 3000)
        scratch.journal = server.url
        let (emulator, base, connection) = try await batch.emulator()
        try await batch.register(scratch, connection)
        let shards = try (0..<2).map { index in
            try PushlineProcess(
                ["run", batch.paced, "--shard", "\(index)/2", "--quiet"],
                environment: batch.environment(scratch, connection),
                directory: try workingDirectory())
        }
        try await batch.waitForDeliveries(base, atLeast: 600)
        try server.crash()
        for process in shards {
            let status = try await process.waitForExit(timeout: 90)
            // A journal that cannot be written stops the run at once, saying so; running again resumes (1 is retried).
            #expect([1, 75].contains(status), "\(process.stdout.suffix(1500))")
            #expect(
                process.stdout.contains("cannot reach the run store at postgres://pushline@127.0.0.1:"),
                "\(process.stdout.suffix(1500))")
            #expect(!process.stdout.contains(server.url), "the password was printed")
        }
        let stopped = try await batch.deliveries(base).values.reduce(0, +)
        #expect(stopped < 3000)

        // Until it is back, a new start is turned away as retryable (75), sending nothing.
        let early = try PushlineProcess(
            ["run", batch.paced, "--shard", "0/2", "--quiet"], environment: batch.environment(scratch, connection))
        #expect(try await early.waitForExit(timeout: 60) == 75, "\(early.stdout)")
        #expect(try await batch.deliveries(base).values.reduce(0, +) == stopped)

        try server.restart()
        var unknown = 0
        for index in 0..<2 {
            let report = scratch.directory + "/resumed-\(index).json"
            let resumed = try PushlineProcess(
                ["run", batch.paced, "--shard", "\(index)/2", "--quiet", "--report", report],
                environment: batch.environment(scratch, connection), directory: try workingDirectory())
            let status = try await resumed.waitForExit(timeout: 120)
            let counts = try batch.items(report)
            unknown += counts["unknown", default: 0]
            #expect(status == (counts["unknown", default: 0] == 0 ? 0 : 3), "\(resumed.stdout.suffix(1500))")
            #expect(resumed.stdout.contains("resuming run"), "\(resumed.stdout)")
        }
        let delivered = try await batch.deliveries(base)
        #expect(delivered.values.allSatisfy { $0 == 1 }, "a device received the digest twice")
        #expect(3000 - delivered.count <= unknown, "\(3000 - delivered.count) missing, \(unknown) reported unknown")
        #expect(try await emulator.stop() == 0)
    }
}
