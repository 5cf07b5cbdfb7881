import CommandTestSupport
import Foundation
import Testing

/// Delivery outcomes in a real batch run against the emulator: a quarter of the APNs devices have expired channels and
/// the legacy FCM devices reach nobody; the report, the metrics, `runs show` and `runs outcomes` carry the counts the
/// emulator produced, and a run that reaches no device ends with exit 4.
extension PipelineRunProcessTests {
    @Test("a batch's outcome counts reach its report, metrics and journal; a run that reaches no device exits 4")
    func outcomesOfABatch() async throws {
        let directory = try emulatorScratch(
            "outcomes",
            extra: """
                dead-channels:
                  - { reason: expired, platform: apns, share: 0.25 }
                telemetry-delay: 1s
                """)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var devices = (1...40).map { n in
            #"{"installationId":"u\#(n)","userId":"u\#(n)","platform":"apns","pushChannel":"\#(String(format: "%064X", n))"}"#
        }
        devices += (1...3).map {
            #"{"installationId":"old\#($0)","platform":"gcm","pushChannel":"legacy-token-\#($0)","tags":["legacy"]}"#
        }
        try devices.joined(separator: "\n").write(
            toFile: directory + "/devices.jsonl", atomically: true, encoding: .utf8)
        try (["user"] + (1...40).map { "u\($0)" }).joined(separator: "\n").write(
            toFile: directory + "/rows.csv", atomically: true, encoding: .utf8)
        let head = """
            version: 1
            hubs:
              main: { connection: "${env:NH_CONNECTION}", hub: myhub }
            templates:
              alert: { platform: apns, body: '{"aps":{"alert":"$(message)"}}' }
              legacy: { platform: gcm, body: '{"data":{"message":"$(message)"}}' }

            """
        try
            (head + """
                steps:
                  - register: { hub: main, installations: devices.jsonl }
                  - id: digest
                    send:
                      hub: main
                      format: apple
                      template: alert
                      for-each: rows.csv
                      audience: "$UserId:{$(user)}"
                      properties: { message: "hello $(user)" }
                  - id: reached
                    outcomes: { hub: main, of: digest, wait: 60s, sample: 10 }
                """).write(toFile: directory + "/digest.yaml", atomically: true, encoding: .utf8)
        try
            (head + """
                steps:
                  - send: { hub: main, format: gcm, template: legacy, audience: legacy, properties: { message: "still there?" }, outcomes: { wait: 60s } }
                """).write(toFile: directory + "/legacy.yaml", atomically: true, encoding: .utf8)

        let (emulator, _, strings) = try await emulator(["--config", directory + "/emulator.yaml"])
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let journal = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite"]
        let (status, output) = try await run(
            [
                "run", directory + "/digest.yaml", "--report", directory + "/report.json",
                "--metrics", directory + "/metrics.prom",
            ], connection: full, environment: journal)
        #expect(status == 0, "\(output)")
        #expect(output.contains("outcomes (a sample of 10 of 40 notifications read, all final):"), "\(output)")

        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json")))
                as? [String: Any])
        let read = try #require((report["steps"] as? [[String: Any]])?.last)
        let outcomes = try #require((read["data"] as? [String: Any])?["outcomes"] as? [String: Any], "\(read)")
        #expect(outcomes["state"] as? String == "final")
        #expect(outcomes["read"] as? Int == 10 && outcomes["of"] as? Int == 40)
        let apns = try #require((outcomes["platforms"] as? [String: Any])?["apns"] as? [String: Int])
        let success = apns["Success"] ?? 0
        let expired = apns["ExpiredChannel"] ?? 0
        #expect(success + expired == 10, "\(apns)")
        #expect(success > 0, "\(apns)")
        let sendOutputs = try #require(read["outputs"] as? [String: Any])
        #expect(sendOutputs["delivered"] as? Int == success)
        #expect(sendOutputs["dead-channels"] as? Int == expired)
        #expect(sendOutputs["outcome-state"] as? String == "final")

        let metrics = try String(contentsOfFile: directory + "/metrics.prom", encoding: .utf8)
        #expect(
            metrics.contains(
                #"pushline_outcomes{pipeline="digest",step="reached",kind="outcomes",platform="apns",outcome="Success"} \#(success)"#
            ), "\(metrics)")
        #expect(
            metrics.contains(
                #"pushline_outcome_state{pipeline="digest",step="reached",kind="outcomes",state="final"} 1"#))

        // Later, every notification of the run, read again and kept in the journal.
        let runId = try #require(report["runId"] as? String)
        let (later, laterOutput) = try await run(
            ["runs", "outcomes", runId, "--sample", "40"], connection: full, environment: journal)
        #expect(later == 0, "\(laterOutput)")
        #expect(laterOutput.contains("outcomes (40 notifications read, all final):"), "\(laterOutput)")
        #expect(laterOutput.contains("kept with the step's outputs in the journal"))
        let allExpired = laterOutput.split(separator: "\n").first { $0.contains("APNs:") }.map(String.init) ?? ""
        #expect(
            allExpired.contains("Success") && allExpired.contains("ExpiredChannel (dead-channel)"), "\(laterOutput)")
        let (_, shown) = try await run(["runs", "show", runId], connection: full, environment: journal)
        #expect(shown.contains("outcome-state final"), "\(shown)")

        // Written as an earlier release read outcomes (inside the send): the send, then an outcomes step, with a warning.
        let (legacy, legacyOutput) = try await run(
            ["run", directory + "/legacy.yaml"], connection: full, environment: journal)
        #expect(legacy == 4, "\(legacyOutput)")
        #expect(
            legacyOutput.contains("warning: [outcomes] `send:` with `outcomes:` is now two steps"), "\(legacyOutput)")
        #expect(legacyOutput.contains("[2/2] outcomes"), "\(legacyOutput)")
        #expect(legacyOutput.contains("FCM legacy (GCM): 3 PnsUnavailable (configuration)"), "\(legacyOutput)")
        #expect(
            legacyOutput.contains("warning: the hub accepted 1 notification, but telemetry shows none reached a device")
        )
        #expect(legacyOutput.contains("result: undelivered"))
        #expect(try await emulator.stop() == 0)
    }
}

extension PipelineRunProcessTests {
    @Test(
        "devices prune lists exactly the dead devices of a run, by reason, and deletes the installations only when asked"
    )
    func pruneDeadDevices() async throws {
        let expired = String(format: "%064X", 0xE1)
        let invalid = String(format: "%064X", 0xB1)
        let deadRegistration = String(format: "%064X", 0xB2)
        let directory = try emulatorScratch(
            "prune",
            extra: """
                dead-channels:
                  - { reason: expired, handles: ["\(expired)"] }
                  - { reason: invalid, handles: ["\(invalid)", "\(deadRegistration)"] }
                telemetry-delay: 1s
                """)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
        version: 1
        hubs:
          main: { connection: "${env:NH_CONNECTION}", hub: myhub }
        templates:
          alert: { platform: apns, body: '{"aps":{"alert":"$(m)"}}' }
        steps:
          - register:
              hub: main
              installations:
                - { installationId: live-1, platform: apns, pushChannel: "\(String(format: "%064X", 1))", tags: [news] }
                - { installationId: live-2, platform: apns, pushChannel: "\(String(format: "%064X", 2))", tags: [news] }
                - { installationId: gone-1, platform: apns, pushChannel: "\(expired)", tags: [news] }
                - { installationId: bad-1, platform: apns, pushChannel: "\(invalid)", tags: [news] }
                - { installationId: old-1, platform: gcm, pushChannel: "legacy-token", tags: [news] }
          - register:
              hub: main
              registrations:
                - { platform: apns, handle: "\(deadRegistration)", tags: [news] }
          - id: news
            send: { hub: main, format: apple, template: alert, audience: news, properties: { m: "hi" } }
          - outcomes: { hub: main, of: news, wait: 60s }
        """.write(toFile: directory + "/news.yaml", atomically: true, encoding: .utf8)
        let (emulator, _, strings) = try await emulator(["--config", directory + "/emulator.yaml"])
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let journal = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite"]
        let (status, output) = try await run(
            ["run", directory + "/news.yaml", "--report", directory + "/report.json"], connection: full,
            environment: journal)
        #expect(status == 0, "\(output)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json")))
                as? [String: Any])
        let runId = try #require(report["runId"] as? String)

        let (listed, listing) = try await run(
            ["devices", "prune", runId, "--format", "json"], connection: full, environment: journal)
        #expect(listed == 0, "\(listing)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [String: Any], "\(listing)")
        let dead = (object["dead"] as? [[String: Any]] ?? []).map {
            "\($0["kind"] as? String ?? ""):\($0["reason"] as? String ?? "")"
        }
        // The expired and the invalid installation (NH marks both), and the registration of its own the telemetry names;
        // not the live devices, and not the legacy FCM one (its platform is retired: a configuration matter, not a dead channel).
        #expect(
            dead.sorted() == [
                "installation:pushChannelExpired", "installation:pushChannelExpired", "registration:BadChannel",
            ], "\(listing)")
        let ids = Set(
            (object["dead"] as? [[String: Any]] ?? []).compactMap {
                $0["kind"] as? String == "installation" ? $0["id"] as? String : nil
            })
        #expect(ids == ["gone-1", "bad-1"])

        let (text, textOutput) = try await run(["devices", "prune", runId], connection: full, environment: journal)
        #expect(text == 0)
        #expect(
            textOutput.contains(
                "nothing was changed; to delete these devices: pushline devices prune \(runId) --delete"),
            "\(textOutput)")
        #expect(try await run(["installation", "get", "gone-1"], connection: full).0 == 0)

        let (deleted, deleteOutput) = try await run(
            ["devices", "prune", runId, "--delete"], connection: full, environment: journal)
        #expect(deleted == 0, "\(deleteOutput)")
        #expect(deleteOutput.contains("[1/2] register ok     deleted 2 installations on hub 'main'"), "\(deleteOutput)")
        #expect(deleteOutput.contains("[2/2] register ok     deleted 1 registration on hub 'main'"), "\(deleteOutput)")
        #expect(try await run(["installation", "get", "gone-1"], connection: full).0 == 1)
        #expect(try await run(["installation", "get", "live-1"], connection: full).0 == 0)
        let (_, runs) = try await run(["runs", "list"], connection: full, environment: journal)
        #expect(runs.contains("devices-prune-main"), "\(runs)")
        let (_, after) = try await run(
            ["devices", "prune", runId, "--format", "json"], connection: full, environment: journal)
        let remaining = try #require(try JSONSerialization.jsonObject(with: Data(after.utf8)) as? [String: Any])
        #expect((remaining["dead"] as? [[String: Any]])?.isEmpty == true, "\(after)")
        #expect(try await emulator.stop() == 0)
    }
}
