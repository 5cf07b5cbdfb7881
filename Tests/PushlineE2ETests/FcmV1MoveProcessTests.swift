import CommandTestSupport
import Foundation
import Testing

/// The move from legacy FCM to FCM v1 against the emulator: a run registers Android devices as `gcm` (which reach
/// nobody), `fcmv1 move` plans from the journal without changing anything, `--apply` re-registers them as `fcmv1`
/// with tags, user id and translated templates through a journalled run, and the next send's outcome counts show
/// them delivered through FCM v1.
extension PipelineRunProcessTests {
    @Test("fcmv1 move: a dry run first, then the legacy devices re-registered as fcmv1, verified by outcome counts")
    func fcmV1Move() async throws {
        let directory = try emulatorScratch("fcmv1")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let legacyTemplate =
            ##"{"digest":{"body":"{\"data\":{\"m\":\"$(m)\",\"count\":\"#(count)\"},\"time_to_live\":3600,\"priority\":\"high\"}","tags":["digest"]}}"##
        let devices = [
            ##"{"installationId":"pixel-1","platform":"gcm","pushChannel":"legacy-token-1","tags":["news","sports"],"userId":"alice","templates":\##(legacyTemplate)}"##,
            ##"{"installationId":"pixel-2","platform":"gcm","pushChannel":"legacy-token-2","tags":["news"],"templates":\##(legacyTemplate)}"##,
            ##"{"installationId":"pixel-odd","platform":"gcm","pushChannel":"legacy-token-3","tags":["news"],"templates":{"digest":{"body":"{\"data\":{\"m\":\"$(m)\"},\"mystery\":1}"}}}"##,
            ##"{"installationId":"ipad-1","platform":"apns","pushChannel":"\##(String(format: "%064X", 1))","tags":["news"],"templates":{"digest":{"body":"{\"aps\":{\"alert\":\"$(m)\"}}"}}}"##,
        ]
        try devices.joined(separator: "\n").write(
            toFile: directory + "/devices.jsonl", atomically: true, encoding: .utf8)
        let head = """
            version: 1
            hubs:
              main: { connection: "${env:NH_CONNECTION}", hub: myhub }

            """
        let send =
            #"{ hub: main, format: template, audience: news, properties: { m: "hi", count: "3" } }"#
            + "\n  - outcomes: { hub: main, of: news, wait: 60s }"
        // A registration of its own too: listed as not moved, never read as an installation.
        try
            (head
            + "steps:\n  - register: { hub: main, installations: devices.jsonl }\n  - id: news\n    send: \(send)\n"
            + "  - register: { hub: main, registrations: [{ platform: gcm, handle: legacy-token-9, tags: [other] }] }\n")
            .write(toFile: directory + "/nightly.yaml", atomically: true, encoding: .utf8)
        // Another message: the same one again would be held back as already sent.
        try
            (head
            + "steps:\n  - id: news\n    send: \(send.replacingOccurrences(of: "m: \"hi\"", with: "m: \"hi again\""))\n")
            .write(toFile: directory + "/after.yaml", atomically: true, encoding: .utf8)

        let (emulator, _, strings) = try await emulator(["--config", directory + "/emulator.yaml"])
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let journal = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite"]
        func platforms(_ report: String) throws -> [String: [String: Int]] {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            )
            let step = try #require(
                (object["steps"] as? [[String: Any]])?.first { ($0["data"] as? [String: Any])?["outcomes"] != nil })
            let outcomes = try #require((step["data"] as? [String: Any])?["outcomes"] as? [String: Any], "\(step)")
            return try #require(outcomes["platforms"] as? [String: [String: Int]])
        }
        let (status, output) = try await run(
            ["run", directory + "/nightly.yaml", "--report", directory + "/before.json"], connection: full,
            environment: journal)
        #expect(status == 0, "\(output)")
        let before = try platforms(directory + "/before.json")
        #expect(before["gcm"] == ["PnsUnavailable": 3], "\(before)")
        #expect(before["apns"] == ["Success": 1], "\(before)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/before.json")))
                as? [String: Any])
        let runId = try #require(report["runId"] as? String)

        // The dry run: the plan, nothing changed.
        let (planned, plan) = try await run(
            ["fcmv1", "move", runId, "--format", "json"], connection: full, environment: journal)
        #expect(planned == 0, "\(plan)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(plan.utf8)) as? [String: Any], "\(plan)")
        let moves = try #require(object["moves"] as? [[String: Any]])
        #expect(moves.compactMap { $0["installationId"] as? String } == ["pixel-1", "pixel-2"])
        let digest = try #require((moves.first?["templates"] as? [String: Any])?["digest"] as? [String: Any])
        #expect(
            digest["after"] as? String
                == #"{"message":{"android":{"priority":"high","ttl":"3600s"},"data":{"count":"$(count)","m":"$(m)"}}}"#,
            "\(digest)")
        let refused = try #require(object["refused"] as? [[String: Any]])
        #expect(refused.count == 1 && refused.first?["installationId"] as? String == "pixel-odd")
        #expect((refused.first?["reason"] as? String)?.contains("'mystery' is not a legacy FCM key") == true)
        #expect(object["otherPlatforms"] as? Int == 1 && object["alreadyFcmV1"] as? Int == 0)
        #expect(object["registrationsNotMoved"] as? Int == 1 && object["gone"] as? Int == 0, "\(plan)")
        #expect(object["legacySteps"] as? [Int] == [1])
        let (_, text) = try await run(["fcmv1", "move", runId], connection: full, environment: journal)
        #expect(
            text.contains(
                "2 legacy FCM to move, 1 not translatable, 0 on FCM v1 already, 1 on other platforms, 0 gone"),
            "\(text)")
        #expect(text.contains("nothing was changed; to move them: pushline fcmv1 move \(runId) --apply"))
        #expect(text.contains("1 registration of their own the run wrote is not moved"), "\(text)")
        #expect(text.contains("register step 1 wrote these devices as gcm"))
        #expect(!text.contains("legacy-token"), "tokens are not printed")
        let (_, unchanged) = try await run(["installation", "get", "pixel-1"], connection: full)
        #expect(unchanged.contains(#""platform": "gcm""#) || unchanged.contains(#""platform":"gcm""#), "\(unchanged)")

        // The move: a journalled register run; the untranslatable device stays, and says so (exit 3).
        let (applied, applyOutput) = try await run(
            ["fcmv1", "move", runId, "--apply"], connection: full, environment: journal)
        #expect(applied == 3, "\(applyOutput)")
        #expect(applyOutput.contains("[1/1] register ok"), "\(applyOutput)")
        #expect(applyOutput.contains("1 legacy FCM installation was not moved"))
        let (got, moved) = try await run(["installation", "get", "pixel-1"], connection: full)
        #expect(got == 0)
        let installation = try #require(
            try JSONSerialization.jsonObject(with: Data(moved.utf8)) as? [String: Any], "\(moved)")
        #expect(installation["platform"] as? String == "fcmv1")
        #expect(installation["pushChannel"] as? String == "legacy-token-1")
        #expect(installation["userId"] as? String == "alice")
        #expect(Set(installation["tags"] as? [String] ?? []) == ["news", "sports"])
        let template = try #require((installation["templates"] as? [String: Any])?["digest"] as? [String: Any])
        #expect((template["body"] as? String)?.hasPrefix(#"{"message":"#) == true)
        let (_, runs) = try await run(["runs", "list"], connection: full, environment: journal)
        #expect(runs.contains("fcmv1-move-main"), "\(runs)")

        // Verified by outcomes: the moved devices are delivered through FCM v1; the one left behind still reaches no one.
        let (after, afterOutput) = try await run(
            ["run", directory + "/after.yaml", "--report", directory + "/after.json"], connection: full,
            environment: journal)
        #expect(after == 0, "\(afterOutput)")
        let counts = try platforms(directory + "/after.json")
        #expect(counts["fcmv1"] == ["Success": 2], "\(counts) \(afterOutput)")
        #expect(counts["gcm"] == ["PnsUnavailable": 1], "\(counts)")

        // Planned again: nothing left to move but the device that needs a hand.
        let (_, again) = try await run(["fcmv1", "move", runId], connection: full, environment: journal)
        #expect(again.contains("0 legacy FCM to move, 1 not translatable, 2 on FCM v1 already"), "\(again)")
        #expect(try await emulator.stop() == 0)
    }

    @Test(
        "fcmv1 translate prints the v1 form and its notes; a body it cannot translate faithfully is exit 2 with the reason"
    )
    func fcmV1Translate() async throws {
        let directory = NSTemporaryDirectory() + "pushline-fcmv1-translate-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #"{"to":"x","data":{"m":"$(m)","n":2}}"#.write(
            toFile: directory + "/alert.gcm.json", atomically: true, encoding: .utf8)
        let (status, output) = try await run(["fcmv1", "translate", directory + "/alert.gcm.json"], connection: "")
        #expect(status == 0, "\(output)")
        #expect(output.contains(#"{"message":{"data":{"m":"$(m)","n":"2"}}}"#))
        #expect(output.contains("note: dropped 'to': the hub addresses each device"))
        try #"{"data":{"m":"$(m)"},"dry_run":true}"#.write(
            toFile: directory + "/dry.gcm.json", atomically: true, encoding: .utf8)
        let (refused, reason) = try await run(["fcmv1", "translate", directory + "/dry.gcm.json"], connection: "")
        #expect(refused == 2)
        #expect(reason.contains("'dry_run' is set"), "\(reason)")
    }
}
