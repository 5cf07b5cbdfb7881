import CommandTestSupport
import Foundation
import Testing

/// A run of a pipeline split one way never sends alongside a run of it split another way (or not split), even
/// with `--again`: every start passes the pipeline's gate, where it checks for a live run of another split.
@Suite(.serialized) struct SplitConflictProcessTests {
    let batch = BatchRunProcessTests()

    @Test(
        "while a run sends whole, a part is turned away (75), also with --again; while a part sends, a whole run is",
        arguments: JournalKind.all)
    func otherSplitsAreTurnedAway(_ journal: JournalKind) async throws {
        let scratch = try await BatchRunProcessTests.Scratch(users: 3000, journal: journal)
        let (emulator, base, connection) = try await batch.emulator()
        try await batch.register(scratch, connection)
        let environment = batch.environment(scratch, connection)

        let whole = try PushlineProcess(["run", batch.paced, "--quiet"], environment: environment)
        try await batch.waitForDeliveries(base, atLeast: 100)
        for extra in [[], ["--again"]] {
            let part = try PushlineProcess(
                ["run", batch.paced, "--shard", "0/4", "--quiet"] + extra, environment: environment)
            #expect(try await part.waitForExit() == 75, "\(part.stdout)")
            #expect(
                part.stdout.contains(
                    "is still sending whole (no --shard) in process \(whole.process.processIdentifier)"),
                "\(part.stdout)")
        }
        _ = try await whole.stop(signal: SIGTERM)

        // A part of a fresh split (--again: the run was whole) now runs; a whole run started meanwhile is turned away.
        let before = try await batch.deliveries(base).values.reduce(0, +)
        let part = try PushlineProcess(
            ["run", batch.paced, "--shard", "1/2", "--again", "--quiet"], environment: environment)
        try await batch.waitForDeliveries(base, atLeast: before + 50)
        let again = try PushlineProcess(["run", batch.paced, "--again", "--quiet"], environment: environment)
        #expect(try await again.waitForExit() == 75, "\(again.stdout)")
        #expect(again.stdout.contains("is still sending as shard 1/2 (--shard I/2)"), "\(again.stdout)")
        _ = try await part.stop(signal: SIGTERM)
        #expect(try await emulator.stop() == 0)
    }
}
