import CommandTestSupport
import Foundation
import TestSupport
import Testing

/// Budgets shared through the journal: two shards of one run, from two working directories, keep to one
/// `rate:` together, whether the hub's or the step's. Only a lower bound on the time is asserted (a slow
/// machine makes a run longer, never shorter): each process pacing alone would take half of it.
@Suite(.serialized) struct SharedPaceProcessTests {
    let batch = BatchRunProcessTests()
    let users = 100

    @Test(
        "two shards keep to one rate together, through either store", arguments: JournalKind.all,
        ["digest-hub-rate.yaml", "digest-rate25.yaml"])
    func twoShardsShareOneBudget(_ journal: JournalKind, _ pipeline: String) async throws {
        let scratch = try await BatchRunProcessTests.Scratch(users: users, journal: journal)
        let (emulator, base, connection) = try await batch.emulator()
        try await batch.register(scratch, connection)
        let reports = (0..<2).map { scratch.directory + "/shard-\($0).json" }
        let started = ContinuousClock.now
        let shards = try (0..<2).map { index in
            try PushlineProcess(
                [
                    "run", batch.inputs + "e2e/" + pipeline, "--shard", "\(index)/2", "--quiet", "--report",
                    reports[index],
                ],
                environment: batch.environment(scratch, connection), directory: try workingDirectory())
        }
        for shard in shards { #expect(try await shard.waitForExit(timeout: 120) == 0, "\(shard.stdout)") }
        let elapsed = ContinuousClock.now - started
        // 100 sends at 25 a second: 4 s together (less the first reserved block of each), 2 s if each kept 25 alone.
        #expect(elapsed >= .milliseconds(3400), "\(elapsed)")
        var accepted = 0
        for report in reports {
            let counts = try batch.items(report)
            #expect(counts["accepted", default: 0] + counts["otherShards", default: 0] == users, "\(counts)")
            accepted += counts["accepted", default: 0]
        }
        #expect(accepted == users)
        let delivered = try await batch.deliveries(base)
        #expect(delivered.count == users && delivered.values.allSatisfy { $0 == 1 })
        #expect(try await emulator.stop() == 0)
    }

    private func workingDirectory() throws -> String {
        let directory = TestScratch.root.appendingPathComponent("pace-cwd-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }
}
