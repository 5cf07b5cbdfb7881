import CommandTestSupport
import Foundation
import Testing

/// The real `pushline run` against a real emulator that injects faults.
@Suite(.serialized) struct FaultRunProcessTests {
    let inputs = CommandRunner.root + "/Tests/PushlineCLITests/Inputs/"

    func emulator(config: String) async throws -> (PushlineProcess, String, String) {
        let emulator = try await EmulatorProcess.start(["--config", inputs + config])
        return (emulator.process, emulator.base, try #require(emulator.connections.first))
    }

    @Test func throttledAndBusySendsAreRetriedAndDeliveredExactlyOnce() async throws {
        // The faults are random (a first attempt escapes both with probability 0.54, all ten with 0.002), so
        // a run in which none bit proves nothing about retries: such a run is done again, with a new emulator.
        var faultsBit = false
        for _ in 1...3 where !faultsBit {
            let (emulator, base, connection) = try await emulator(config: "emulator-faults.yaml")
            let report = FileManager.default.temporaryDirectory.appendingPathComponent(
                "pushline-report-\(UUID().uuidString).json"
            ).path
            defer { try? FileManager.default.removeItem(atPath: report) }
            let run = try PushlineProcess(
                ["run", inputs + "many-sends.yaml", "--report", report], environment: ["NH_CONNECTION": connection])
            let status = try await run.waitForExit(timeout: 120)
            #expect(status == 0, "\(run.stdout)")
            let deliveries =
                try JSONSerialization.jsonObject(
                    with: Data(try await http("GET", "\(base)_emulator/deliveries").1.utf8)) as? [[String: Any]] ?? []
            let payloads = deliveries.compactMap { $0["payload"] as? String }.sorted()
            #expect(payloads == (1...10).map { #"{"aps":{"alert":"\#($0)"}}"# }.sorted())
            let json =
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            let attempts = ((json?["steps"] as? [[String: Any]]) ?? []).compactMap { step -> Int? in
                ((step["data"] as? [String: Any])?["requests"] as? [[String: Any]])?.first?["attempts"] as? Int
            }
            #expect(attempts.count == 10)
            faultsBit = attempts.contains { $0 > 1 }
            #expect(try await emulator.stop() == 0)
        }
        // The faults did bite: at least one send needed more than one attempt, and was still delivered once.
        #expect(faultsBit)
    }

    @Test func anAmbiguousSendIsReportedUnknownAndNotResent() async throws {
        let (emulator, base, connection) = try await emulator(config: "emulator-ambiguous.yaml")
        let report = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-report-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let run = try PushlineProcess(
            ["run", CommandRunner.root + "/pipelines/seed-tutorial.yaml", "--report", report],
            environment: ["NH_CONNECTION": connection, "NH_HUB": "myhub"])
        // Partial, as an unknown item of a batch: the run ends (exit 3), and the next start is not held up by it.
        #expect(try await run.waitForExit() == 3, "\(run.stdout)")
        #expect(run.stdout.contains("may or may not have been accepted"))
        #expect(run.stdout.contains("pushline runs resolve"), "\(run.stdout)")
        let json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let send = ((json?["steps"] as? [[String: Any]]) ?? []).first { $0["step"] as? String == "send" }
        let request = ((send?["data"] as? [String: Any])?["requests"] as? [[String: Any]])?.first
        #expect(request?["outcome"] as? String == "unknown", "\(send ?? [:])")
        #expect(request?["attempts"] as? Int == 1)
        #expect((send?["items"] as? [String: Int])?["unknown"] == 1)
        #expect(try await http("GET", "\(base)_emulator/deliveries").1 == "[]")
        #expect(try await emulator.stop() == 0)
    }

    @Test func aSendTheHubRefusesStopsAndItsReportStillAddsUpToTheRecords() async throws {
        let (emulator, base, connection) = try await emulator(config: "emulator.yaml")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-refused-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let rows = directory + "/rows.csv"
        try ("userId,headline\n" + (1...40).map { "u\($0),news \($0)\n" }.joined()).write(
            toFile: rows, atomically: true, encoding: .utf8)
        // The right shape, the wrong key: the hub answers 401 to every send, and the batch stops at the first.
        let wrongKey = connection.replacingOccurrences(
            of: #"SharedAccessKey=[^;]*"#, with: "SharedAccessKey=V3JvbmdLZXlXcm9uZ0tleVdyb25nS2V5V3JvbmdLZXk=",
            options: .regularExpression)
        let run = try PushlineProcess(
            ["run", inputs + "e2e/digest-fixable.yaml", "--journal", directory + "/journal.sqlite"],
            environment: ["NH_CONNECTION": wrongKey, "DIGEST_ROWS": rows])
        #expect(try await run.waitForExit(timeout: 120) == 1)
        // `40 records in 'rows.csv': 0 accepted + 8 failed + 32 not reached`: every record is in one of the terms.
        let line = try #require(
            run.stdout.split(separator: "\n").first { $0.contains("records in '") }, "\(run.stdout)")
        let terms = line.split(separator: ":").last!.split(separator: "+").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let sum = terms.compactMap { Int($0.split(separator: " ").first ?? "") }.reduce(0, +)
        #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix("40 records in '"), "\(line)")
        #expect(sum == 40, "\(line)")
        #expect(terms.count >= 2 && line.contains("failed"), "\(line)")
        #expect(run.stdout.contains("result: failed — "), "\(run.stdout)")
        #expect(try await http("GET", "\(base)_emulator/deliveries").1 == "[]")
        #expect(try await emulator.stop() == 0)
    }
}
