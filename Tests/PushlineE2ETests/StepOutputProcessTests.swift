import CommandTestSupport
import Foundation
import Testing

/// `${steps.ID.OUTPUT}` in a real run against the emulator: a scheduled send's id reaches a cancel step, a count
/// reaches a later payload, and a reference to a skipped step's output fails that step, naming both.
extension PipelineRunProcessTests {
    private func pipelineFile(_ yaml: String) throws -> (path: String, directory: String) {
        let directory = NSTemporaryDirectory() + "pushline-outputs-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try yaml.write(toFile: directory + "/p.yaml", atomically: true, encoding: .utf8)
        return (directory + "/p.yaml", directory)
    }

    /// The template and the first step the process tests share: one APNs installation tagged `ops` on hub `main`.
    static let opsDevice = """
        templates:
          alert: { platform: apns, body: '{"aps":{"alert":"$(message)"}}' }
        steps:
          - register:
              hub: main
              templates: [alert]
              installations:
                - { installationId: ops-1, platform: apns, pushChannel: 62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA, tags: [ops] }
        """

    private static let head = """
        version: 1
        hubs:
          main: { connection: "${env:NH_CONNECTION}", hub: myhub }
        \(opsDevice)

        """

    @Test("a scheduled send's notification id reaches a cancel step, and a count reaches a later payload")
    func scheduledIdReachesCancel() async throws {
        let (emulator, base, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let (pipeline, directory) = try pipelineFile(
            Self.head + """
                  - id: schedule
                    send: { hub: main, audience: ops, schedule: in 2h, properties: { message: "later" } }
                  - name: cancel it
                    cancel: { hub: main, notification-ids: "${steps.schedule.notification-ids}" }
                  - id: now
                    send: { hub: main, audience: ops, properties: { message: "now" } }
                  - send: { hub: main, audience: ops, properties: { message: "${steps.now.accepted} sent, \\"quoted\\"" } }
                  - name: only when none went out
                    when: ${steps.now.accepted} == 0
                    send: { hub: main, audience: ops, properties: { message: "none went out" } }
                  - when: "!dry-run && ${steps.now.notification-ids} != [] && ${steps.schedule.failed} < 1"
                    send: { hub: main, audience: ops, properties: { message: "checked" } }
                """)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = try PushlineProcess(
            ["run", pipeline, "--report", directory + "/report.json"],
            environment: ["NH_CONNECTION": full, "PUSHLINE_JOURNAL": directory + "/journal.sqlite"])
        #expect(try await process.waitForExit() == 0, "\(process.stdout)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json")))
                as? [String: Any])
        let steps = try #require(report["steps"] as? [[String: Any]])
        let scheduled = try #require(((steps[1]["outputs"] as? [String: Any])?["notification-ids"] as? [String])?.first)
        #expect((steps[2]["outputs"] as? [String: Any])?["notification-ids"] as? [String] == [scheduled])
        #expect(process.stdout.contains("cancelled scheduled notification '\(scheduled)'"), "\(process.stdout)")
        // The count went into the payload as a value: the template engine escaped the quotes around it.
        let deliveries = try await http("GET", "\(base)_emulator/deliveries").1
        #expect(deliveries.contains(#"1 sent, \\\"quoted\\\""#), "\(deliveries)")
        #expect(!deliveries.contains("later"), "the scheduled send was cancelled before it went out")
        // when: expressions over outputs and the run: one is false and skips its step, the other holds.
        #expect(
            steps[5]["status"] as? String == "skipped"
                && steps[5]["summary"] as? String == "skipped (when: ${steps.now.accepted} == 0): false")
        #expect(steps[6]["status"] as? String == "succeeded")
        #expect(deliveries.contains("checked") && !deliveries.contains("none went out"))
        #expect(try await emulator.stop() == 0)
    }

    @Test(
        "the schedule-then-cancel example cancels what it scheduled; its dry run says the id is known only in a live run"
    )
    func scheduleThenCancelExample() async throws {
        let (emulator, _, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let example = CommandRunner.root + "/pipelines/schedule-then-cancel.yaml"
        let directory = NSTemporaryDirectory() + "pushline-example-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (dryStatus, dry) = try await run(["run", example, "--dry-run"], connection: full)
        #expect(dryStatus == 0 && dry.contains("would run with values a live run hands on"), "\(dry)")
        let (status, output) = try await run(
            ["run", example], connection: full, environment: ["PUSHLINE_JOURNAL": directory + "/journal.sqlite"])
        #expect(status == 0, "\(output)")
        #expect(
            output.contains("[2/2] cancel the reminder") && output.contains("cancelled scheduled notification '"),
            "\(output)")
        #expect(try await emulator.stop() == 0)
    }

    @Test(
        "a resumed run reads a completed step back instead of running it again: the cancel is not repeated, its outputs are journalled and shown"
    )
    func resumedRunReadsCompletedStepsBack() async throws {
        let (emulator, _, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let (pipeline, directory) = try pipelineFile(
            """
            version: 1
            hubs:
              main: { connection: "${env:NH_CONNECTION}", hub: myhub }
              gone: { connection: "${env:NH_CONNECTION}", hub: no-such-hub }
            \(Self.opsDevice)
              - id: schedule
                send: { hub: main, audience: ops, schedule: in 2h, properties: { message: "later" } }
              - name: cancel it
                # The spelling before `cancel` was a step of its own, still read (with a warning).
                send: { hub: main, cancel: "${steps.schedule.notification-ids[0]}" }
              - send: { hub: gone, audience: ops, properties: { message: "fails" } }
            """)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["NH_CONNECTION": full, "PUSHLINE_JOURNAL": directory + "/journal.sqlite"]
        let first = try PushlineProcess(["run", pipeline], environment: environment)
        #expect(try await first.waitForExit() == 1)
        // Again: it resumes the failed run. Had the cancel run again, the hub would have had nothing to cancel (404).
        let again = try PushlineProcess(
            ["run", pipeline, "--report", directory + "/report.json"], environment: environment)
        #expect(try await again.waitForExit() == 1, "the last step still fails: \(again.stdout)")
        let lines = again.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.hasPrefix("[3/4] cancel it")
                    && $0.contains("done by an earlier attempt of this run: cancelled scheduled notification")
            },
            "\(again.stdout)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json")))
                as? [String: Any])
        let steps = try #require(report["steps"] as? [[String: Any]])
        let scheduled = try #require(((steps[1]["outputs"] as? [String: Any])?["notification-ids"] as? [String])?.first)
        #expect((steps[2]["outputs"] as? [String: Any])?["notification-ids"] as? [String] == [scheduled])
        let show = try PushlineProcess(
            ["runs", "show", try #require(report["runId"] as? String)], environment: environment)
        #expect(try await show.waitForExit() == 0)
        #expect(
            show.stdout.contains("step 3 cancel it: completed: cancelled scheduled notification '\(scheduled)'"),
            "\(show.stdout)")
        #expect(
            show.stdout.contains("  outputs: cancelled 1; notification-ids [\(scheduled)]; tracking-ids ["),
            "\(show.stdout)")
        // The steps are listed in the pipeline's order, those with items and those that completed alike.
        let numbers = show.stdout.split(separator: "\n").filter { $0.hasPrefix("step ") }.compactMap {
            Int($0.split(separator: " ")[1])
        }
        #expect(numbers.count >= 3 && numbers == numbers.sorted(), "\(show.stdout)")
        #expect(try await emulator.stop() == 0)
    }

    @Test("a step that was skipped hands on its outputs empty, with its status: a later step reads 0 and 'skipped'")
    func skippedStepsOutput() async throws {
        let (emulator, base, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let (pipeline, directory) = try pipelineFile(
            Self.head + """
                  - id: apology
                    when: failure
                    send: { hub: main, audience: ops, properties: { message: "sorry" } }
                  - name: follow-up
                    send: { hub: main, audience: ops, properties: { message: "${steps.apology.accepted} apologies (${steps.apology.status}${steps.apology.error})" } }
                """)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, output) = try await run(
            ["run", pipeline], connection: full, environment: ["PUSHLINE_JOURNAL": directory + "/journal.sqlite"])
        #expect(status == 0, "\(output)")
        let deliveries = try await http("GET", "\(base)_emulator/deliveries").1
        #expect(deliveries.contains("0 apologies (skipped)"), "\(deliveries)")
        #expect(try await emulator.stop() == 0)
    }
}
