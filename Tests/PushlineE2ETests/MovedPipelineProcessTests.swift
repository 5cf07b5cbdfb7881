import CommandTestSupport
import Foundation
import Testing

/// The same pipeline read from another path (another checkout, another pod's mount) is the same run: it resumes
/// there, and while it sends from one path, a start from another is turned away.
extension BatchRunProcessTests {
    @Test(arguments: JournalKind.all)
    func theSameRunFromAnotherPathIsTurnedAwayWhileItSendsAndResumesOnceItWasKilled(_ kind: JournalKind) async throws {
        let scratch = try await Scratch(users: 3000, journal: kind)
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        let text = try slowPacedText()
        let copies = try (0..<2).map { index in
            let directory = scratch.directory + "/checkout-\(index)/pipelines"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try text.write(toFile: directory + "/digest.yaml", atomically: true, encoding: .utf8)
            return directory + "/digest.yaml"
        }
        let first = try PushlineProcess(["run", copies[0], "--quiet"], environment: environment(scratch, connection))
        try await waitForDeliveries(base, atLeast: 300)
        let elsewhere = try PushlineProcess(
            ["run", copies[1], "--quiet"], environment: environment(scratch, connection))
        #expect(try await elsewhere.waitForExit() == 75, "\(elsewhere.stdout)")
        #expect(elsewhere.stdout.contains("pid \(first.process.processIdentifier)"), "\(elsewhere.stdout)")

        _ = try await first.stop(signal: SIGKILL)
        let report = scratch.directory + "/report.json"
        let resumed = try PushlineProcess(
            ["run", copies[1], "--report", report, "--quiet"], environment: environment(scratch, connection))
        let status = try await resumed.waitForExit(timeout: 120)
        #expect(resumed.stdout.contains("resuming run"), "\(resumed.stdout)")
        let counts = try items(report)
        #expect(status == (counts["unknown"] == 0 ? 0 : 3), "\(resumed.stdout)")
        #expect(counts["skipped", default: 0] >= 300 - 8 - 64, "\(counts)")
        #expect(counts["skipped", default: 0] + counts["accepted", default: 0] + counts["unknown", default: 0] == 3000)
        let delivered = try await deliveries(base)
        #expect(delivered.values.allSatisfy { $0 == 1 }, "a device received the digest twice")
        #expect(3000 - delivered.count <= counts["unknown", default: 0])
        #expect(try await emulator.stop() == 0)
    }
}
