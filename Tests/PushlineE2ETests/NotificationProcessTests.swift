import CommandTestSupport
import Foundation
import Testing

/// `pushline notification show`, run as the real executable against the real emulator.
@Suite(.serialized) struct NotificationProcessTests {
    static let dead = "AAAA0000000000000000000000000000000000000000000000000000000000EE"

    func apnsToken(_ seed: Int) -> String {
        let hex = String(seed, radix: 16, uppercase: true)
        return String(repeating: "A", count: 64 - hex.count) + hex
    }

    func pushline(_ arguments: [String], _ environment: [String: String]) async throws -> (Int32, String) {
        let process = try PushlineProcess(arguments, environment: environment)
        let status = try await process.waitForExit()
        return (status, process.stdout)
    }

    /// An emulator on `tier` whose config marks one APNs token expired; its Full connection string.
    func emulator(tier: String, in directory: String) async throws -> (PushlineProcess, [String: String]) {
        let config = directory + "/emulator-\(tier).yaml"
        try """
        namespace: local
        tier: \(tier)
        hubs:
          myhub:
            policies:
              Full: { key: "LocalEmulatorSampleKey0NotASecret0000000000=", rights: [Listen, Manage, Send] }
        dead-channels:
          - { reason: expired, handles: ["\(Self.dead)"] }
        telemetry-delay: 1s
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let emulator = try await EmulatorProcess.start(["--config", config])
        let full = try #require(emulator.connection(named: "Full"))
        return (emulator.process, ["NH_CONNECTION": full, "NH_HUB": "myhub"])
    }

    @Test func showsTheOutcomeOnceFinalAndSaysPlainlyWhenTheHubKeepsNone() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-notification-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (standard, env) = try await emulator(tier: "standard", in: directory)
        for (id, token) in [("live-1", apnsToken(1)), ("live-2", apnsToken(2)), ("gone", Self.dead)] {
            let file = directory + "/\(id).json"
            try #"{"installationId":"\#(id)","platform":"apns","pushChannel":"\#(token)","tags":["t"]}"#.write(
                toFile: file, atomically: true, encoding: .utf8)
            #expect(try await pushline(["installation", "put", "--file", file], env).0 == 0)
        }
        let (sent, output) = try await pushline(
            ["send", "--format", "apple", "--tags", "t", "--body", #"{"aps":{"alert":"hi"}}"#], env)
        #expect(sent == 0, "\(output)")
        let id = output.trimmingCharacters(in: .whitespacesAndNewlines)

        let (waited, text) = try await pushline(["notification", "show", id, "--wait", "30s"], env)
        #expect(waited == 0, "\(text)")
        #expect(text.contains("notification \(id) on hub 'myhub': Completed\n"), "\(text)")
        #expect(text.contains("APNs  2 Success, 1 ExpiredChannel (dead-channel)"), "\(text)")
        #expect(text.contains("in all: 2 delivered, 1 not (1 to dead channels)"), "\(text)")
        #expect(text.contains("PNS error details: http://127.0.0.1:"), "\(text)")
        #expect(!text.contains("LocalEmulatorSampleKey"))

        let (_, json) = try await pushline(["notification", "show", id, "--format", "json"], env)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
        #expect(object["state"] as? String == "Completed")
        #expect(object["final"] as? Bool == true)
        #expect(
            ((object["platforms"] as? [String: Any])?["apns"] as? [String: Int]) == ["Success": 2, "ExpiredChannel": 1])
        #expect((object["totals"] as? [String: Int]) == ["delivered": 2, "dead-channel": 1])

        let (unknown, unknownText) = try await pushline(["notification", "show", "no-such-id"], env)
        #expect(unknown == 1)
        #expect(
            unknownText.contains("error: hub 'myhub' has no telemetry for notification 'no-such-id'"), "\(unknownText)")
        #expect(unknownText.contains("hint: "))
        #expect(try await standard.stop() == 0)

        let (basic, basicEnv) = try await emulator(tier: "basic", in: directory)
        let (refused, refusedText) = try await pushline(["notification", "show", id], basicEnv)
        #expect(refused == 1)
        #expect(
            refusedText.hasPrefix(
                "hub 'myhub' keeps no per-message telemetry: that needs the Standard tier, and this hub is Free or Basic\n"
            ),
            "\(refusedText)")
        #expect(!refusedText.contains("error:"))
        #expect(try await basic.stop() == 0)
    }

    @Test func aBadWaitIsAUsageError() async throws {
        let (status, text) = try await pushline(
            ["notification", "show", "x", "--wait", "soon"], ["NH_CONNECTION": "", "NH_HUB": "myhub"])
        #expect(status == 2, "\(text)")
        #expect(text.contains("--wait must be a duration such as 90s or 10m, found 'soon'"), "\(text)")
    }

    @Test("runs outcomes of a run on a hub that gives no notification ids says so, with the count the journal holds")
    func runOutcomesOnAHubWithoutTelemetrySaysWhy() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-run-outcomes-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (basic, env) = try await emulator(tier: "basic", in: directory)
        try "user\nann\nbob\n".write(toFile: directory + "/users.csv", atomically: true, encoding: .utf8)
        try #"{"aps":{"alert":"$(message)"}}"#.write(
            toFile: directory + "/alert.json", atomically: true, encoding: .utf8)
        try """
        version: 1
        name: basic-digest
        hubs:
          main: { connection: "${env:NH_CONNECTION}", hub: "${env:NH_HUB}" }
        templates:
          alert: { platform: apns, body: alert.json }
        steps:
          - send: { hub: main, for-each: users.csv, audience: "$UserId:{$(user)}", format: apple, template: alert, properties: { message: "hi $(user)" } }
        """.write(toFile: directory + "/digest.yaml", atomically: true, encoding: .utf8)
        var journalled = env
        journalled["PUSHLINE_JOURNAL"] = directory + "/journal.sqlite"
        let (sent, output) = try await pushline(["run", directory + "/digest.yaml"], journalled)
        #expect(sent == 0, "\(output)")
        let runId = try #require(
            output.split(separator: "\n").first { $0.hasPrefix("run: ") }.map { String($0.dropFirst(5)) }, "\(output)")

        let (refused, text) = try await pushline(["runs", "outcomes", runId], journalled)
        #expect(refused == 1)
        #expect(
            text.contains(
                "error: step 1 of run \(runId) sent 2 notifications but the hub gave no notification ids: "
                    + "it keeps no per-message telemetry (a Free or Basic hub); that needs the Standard tier"),
            "\(text)")
        let (_, elsewhere) = try await pushline(["runs", "outcomes", runId, "--step", "2"], journalled)
        #expect(elsewhere == "run \(runId) has no accepted notifications in step 2 to read outcomes of\n")
        #expect(try await basic.stop() == 0)
    }
}
