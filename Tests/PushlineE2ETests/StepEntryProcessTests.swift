import CommandTestSupport
import Foundation
import Testing

/// Step entries with `id`, `name` and `when` in a real run against the emulator.
extension PipelineRunProcessTests {
    @Test(
        "a `when: always` step runs after a failing send, a success step is skipped, the run exits with the send's code, and names show in the report, progress and journal"
    )
    func alwaysStepAfterAFailingSend() async throws {
        let (emulator, base, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let directory = NSTemporaryDirectory() + "pushline-entries-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pipeline = directory + "/entries.yaml"
        try """
        version: 1
        hubs:
          main: { connection: "${env:NH_CONNECTION}", hub: myhub }
          gone: { connection: "${env:NH_CONNECTION}", hub: no-such-hub }
        \(Self.opsDevice)
          - id: digest
            name: morning digest
            send: { hub: gone, audience: ops, properties: { message: "the digest" } }
          - name: the follow-up
            send: { hub: main, audience: ops, properties: { message: "follow-up" } }
          - name: tell the on-call channel
            when: always
            send: { hub: main, audience: ops, properties: { message: "the digest ran" } }
          - when: failure
            send: { hub: main, audience: ops, properties: { message: "the digest failed" } }
        """.write(toFile: pipeline, atomically: true, encoding: .utf8)
        let journal = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite"]

        let (status, output) = try await run(["run", pipeline], connection: full, environment: journal)
        #expect(status == 1, "the run ends failed, with the failing send's code: \(output)")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("[2/5] morning digest") && $0.contains("FAILED") }, "\(output)")
        #expect(
            lines.contains {
                $0.hasPrefix("[3/5] the follow-up") && $0.contains("skip") && $0.contains("an earlier step failed")
            }, "\(output)")
        #expect(lines.contains { $0.hasPrefix("[4/5] tell the on-call channel") && $0.contains("ok") }, "\(output)")
        #expect(lines.contains { $0.hasPrefix("[5/5] send") && $0.contains("ok") }, "\(output)")
        let deliveries = try await http("GET", "\(base)_emulator/deliveries").1
        #expect(
            deliveries.contains("the digest ran") && deliveries.contains("the digest failed")
                && !deliveries.contains("follow-up"))

        // Again (it resumes the failed run), with a JSON report: the same steps fail and run.
        let again = try PushlineProcess(
            ["run", pipeline, "--report", directory + "/report.json"],
            environment: journal.merging(["NH_CONNECTION": full]) { a, _ in a })
        #expect(try await again.waitForExit() == 1)
        let json = try Data(contentsOf: URL(fileURLWithPath: directory + "/report.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let steps = try #require(report["steps"] as? [[String: Any]])
        #expect(steps.map { $0["id"] as? String } == [nil, "digest", nil, nil, nil])
        #expect(
            steps.map { $0["name"] as? String } == [
                nil, "morning digest", "the follow-up", "tell the on-call channel", nil,
            ])
        #expect(steps.map { $0["status"] as? String } == ["succeeded", "failed", "skipped", "succeeded", "succeeded"])
        // Outputs: what a step that ran hands on (the resumed run's sends were accepted by the first attempt); none
        // for a skipped step.
        let always = try #require(steps[3]["outputs"] as? [String: Any])
        #expect(always["accepted"] as? Int == 1 && always["failed"] as? Int == 0)
        #expect((always["notification-ids"] as? [String])?.count == 1, "\(always)")
        #expect((steps[0]["outputs"] as? [String: Any])?["installation-ids"] as? [String] == ["ops-1"])
        #expect(steps[2]["outputs"] == nil)

        // The journal knows the steps by their names.
        let runId = try #require(report["runId"] as? String)
        let show = try PushlineProcess(["runs", "show", runId], environment: journal)
        #expect(try await show.waitForExit() == 0)
        #expect(show.stdout.contains("tell the on-call channel"), "\(show.stdout)")
        #expect(try await emulator.stop() == 0)
    }
}
