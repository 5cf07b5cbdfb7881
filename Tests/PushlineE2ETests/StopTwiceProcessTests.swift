import CommandTestSupport
import Foundation
import Testing

extension BatchRunProcessTests {
    @Test(
        "a second SIGTERM ends a run at once: no report, its requests in flight left unknown, and the resumed run sends every other row once"
    )
    func aSecondSignalEndsTheRunAtOnce() async throws {
        let scratch = try await Scratch(users: 20)
        let (emulator, base, connection) = try await emulator(config: "emulator-slow-sends.yaml")
        try await register(scratch, connection)
        let first = try PushlineProcess(["run", paced, "--quiet"], environment: environment(scratch, connection))
        // The first sends are answered after 25 s; by then the run watches for signals, and the next ones are in flight
        // for another 25 s.
        try await waitForDeliveries(base, atLeast: 1, timeout: 120)
        kill(first.process.processIdentifier, SIGTERM)
        _ = try await first.waitForOutput(containing: "SIGTERM received: no new items")
        // Well inside the requests' 25 s and the stop's 30 s grace: only the second signal ends it this soon.
        #expect(try await first.stop(signal: SIGTERM, timeout: 8) == 143)
        #expect(
            !first.stdout.contains("run the same command again to resume"),
            "ended at once, before its report: \(first.stdout)")

        let report = scratch.directory + "/report.json"
        let resumed = try PushlineProcess(
            ["run", paced, "--report", report, "--quiet"], environment: environment(scratch, connection))
        let status = try await resumed.waitForExit(timeout: 120)
        #expect(resumed.stdout.contains("resuming run"), "\(resumed.stdout)")
        let counts = try items(report)
        #expect(
            counts["unknown", default: 0] > 0,
            "the requests in flight when it ended are unknown, never resent: \(counts)")
        #expect(status == 3)
        #expect(
            counts["skipped", default: 0] + counts["accepted", default: 0] + counts["unknown", default: 0] == 20,
            "\(counts)")
        let delivered = try await deliveries(base)
        #expect(delivered.values.allSatisfy { $0 == 1 }, "a device received the digest twice")
        #expect(20 - delivered.count <= counts["unknown", default: 0])
        #expect(try await emulator.stop() == 0)
    }
}
