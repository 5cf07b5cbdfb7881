import CommandTestSupport
import Foundation
import ProcessTestSupport
import Testing

/// A plugin with external effects in runs cut off while it works: `pushline` killed with SIGKILL takes the plugin with
/// it (its guard), the resumed run does not run it again but reports it unknown, `runs resolve` settles it, a later
/// run does not repeat what a run within the window did, and `--again` does; a plugin that declares a repeat with the
/// same key safe is run again on resume.
extension PipelineRunProcessTests {
    /// A folder with `posted.yaml`: one step of the recorder plugin with external effects (and `slow` while it should
    /// work for a minute).
    func externalRecorder(repeatSafe: Bool = false, failStart: Int? = nil) throws -> (
        directory: String, pipeline: String
    ) {
        let directory = NSTemporaryDirectory() + "pushline-effect-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "".write(toFile: directory + "/slow", atomically: true, encoding: .utf8)
        let pipeline = directory + "/posted.yaml"
        try """
        version: 1
        name: posted
        plugins:
          recorder:
            command: [python3, \(CommandRunner.root)/Tests/PushlineCLITests/Inputs/plugins/recorder.py]
            timeout: 5m
            env: { RECORDER_EFFECTS: external, RECORDER_REPEAT_SAFE: "\(repeatSafe ? 1 : 0)", RECORDER_STARTS: "\(directory)/starts", RECORDER_FAIL_START: "\(failStart ?? 0)" }
        steps:
          - id: post
            recorder: { folder: "\(directory)" }

        """.write(toFile: pipeline, atomically: true, encoding: .utf8)
        return (directory, pipeline)
    }

    /// The run requests the recorder got.
    func recordedRequests(_ directory: String) throws -> [[String: Any]] {
        try String(contentsOfFile: directory + "/requests.jsonl", encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Starts `pipeline`, waits until its plugin works, kills `pushline` with SIGKILL and waits (at most 5 s) for the
    /// plugin's guard to stop the plugin. Returns the plugin's pid.
    func killWhileThePluginWorks(_ pipeline: String, in directory: String, environment: [String: String]) async throws
        -> Int32
    {
        let first = try PushlineProcess(["run", pipeline], environment: environment)
        _ = try await first.waitForOutput(containing: "plugin progress")
        let plugin = try #require(Int32(try String(contentsOfFile: directory + "/pid", encoding: .utf8)))
        #expect(try await first.stop(signal: SIGKILL) == SIGKILL)
        #expect(ProcessEnd.wait(for: plugin, within: .seconds(5)), "the plugin outlived pushline by more than 5 s")
        return plugin
    }

    @Test(
        "an external plugin in flight when pushline is killed is stopped with it, unknown on resume (not run again), held back by the next run, settled by runs resolve; then a later run does not repeat it and --again does",
        arguments: JournalKind.all)
    func anExternalPluginCutOffIsUnknown(_ kind: JournalKind) async throws {
        let (directory, pipeline) = try externalRecorder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["PUSHLINE_JOURNAL": try await kind.make(directory)]
        _ = try await killWhileThePluginWorks(pipeline, in: directory, environment: environment)
        try FileManager.default.removeItem(atPath: directory + "/slow")
        let run = try #require(try recordedRequests(directory).first?["run"] as? String)

        // The resumed run does not ask the plugin again: whether the post happened is unknown.
        let resumed = try PushlineProcess(["run", pipeline], environment: environment)
        #expect(try await resumed.waitForExit() == 3, "\(resumed.stdout)")
        #expect(resumed.stdout.contains("resuming run \(run)"), "\(resumed.stdout)")
        #expect(
            resumed.stdout.contains(
                "plugin 'recorder' not run: an earlier attempt of this run was cut off while plugin 'recorder' ran; whether it took effect is unknown"
            ),
            "\(resumed.stdout)")
        #expect(resumed.stdout.contains("pushline runs resolve \(run) --step 1 --delivered"), "\(resumed.stdout)")
        #expect(try recordedRequests(directory).count == 1)
        let show = try PushlineProcess(["runs", "show", run], environment: environment)
        #expect(try await show.waitForExit() == 0, "\(show.stdout)")
        #expect(show.stdout.contains("unknown") && show.stdout.contains("plugin 'recorder'"), "\(show.stdout)")

        // A partial run is not resumed: the next start is a new run, and the same request is held back while its fate is unknown.
        let held = try PushlineProcess(["run", pipeline], environment: environment)
        #expect(try await held.waitForExit() == 3, "\(held.stdout)")
        #expect(
            held.stdout.contains("run \(run) left the same request to plugin 'recorder' of unknown fate"),
            "\(held.stdout)")
        #expect(try recordedRequests(directory).count == 1)

        // Checked and settled as done: the next run does not repeat it within the window; --again does.
        let resolve = try PushlineProcess(
            ["runs", "resolve", run, "--step", "1", "--delivered", "--by", "alice"], environment: environment)
        #expect(try await resolve.waitForExit() == 0, "\(resolve.stdout)")
        #expect(resolve.stdout.contains("1 unknown item settled as delivered by alice"), "\(resolve.stdout)")
        let after = try PushlineProcess(["run", pipeline], environment: environment)
        #expect(try await after.waitForExit() == 0, "\(after.stdout)")
        #expect(
            after.stdout.contains("plugin 'recorder' was run with the same options by run \(run)"), "\(after.stdout)")
        #expect(try recordedRequests(directory).count == 1)
        let again = try PushlineProcess(["run", pipeline, "--again"], environment: environment)
        #expect(try await again.waitForExit() == 0, "\(again.stdout)")
        let requests = try recordedRequests(directory)
        #expect(requests.count == 2)
        #expect(requests.last?["run"] as? String != run && requests.last?["attempt"] as? Int == 1)
    }

    @Test(
        "an external plugin that fails before it is given its run request did nothing: failed, not unknown, and the same command runs it"
    )
    func aPluginThatFailsBeforeItsRequestIsFailed() async throws {
        // Starts 1 and 2 are the build (describe, then check), start 3 the run's plugin, which exits before its handshake.
        let (directory, pipeline) = try externalRecorder(failStart: 3)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.removeItem(atPath: directory + "/slow")
        let environment = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite"]
        let first = try PushlineProcess(["run", pipeline], environment: environment)
        #expect(try await first.waitForExit() == 1, "\(first.stdout)")
        #expect(first.stdout.contains("cannot reach the chat service"), "its stderr is shown: \(first.stdout)")
        #expect(!first.stdout.contains("unknown"), "\(first.stdout)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/requests.jsonl"), "it never got a run request")
        let again = try PushlineProcess(["run", pipeline], environment: environment)
        #expect(try await again.waitForExit() == 0, "\(again.stdout)")
        #expect(again.stdout.contains("recorded the request (and posted)"), "\(again.stdout)")
        #expect(try recordedRequests(directory).count == 1)
    }

    @Test(
        "a plugin that declares a repeat with the same key safe is run again when its run resumes, with the same key and the next attempt"
    )
    func aRepeatSafePluginRunsAgainOnResume() async throws {
        let (directory, pipeline) = try externalRecorder(repeatSafe: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite"]
        _ = try await killWhileThePluginWorks(pipeline, in: directory, environment: environment)
        try FileManager.default.removeItem(atPath: directory + "/slow")
        let resumed = try PushlineProcess(["run", pipeline], environment: environment)
        #expect(try await resumed.waitForExit() == 0, "\(resumed.stdout)")
        #expect(resumed.stdout.contains("resuming run"), "\(resumed.stdout)")
        let requests = try recordedRequests(directory)
        let run = try #require(requests.first?["run"] as? String)
        #expect(requests.map { $0["attempt"] as? Int } == [1, 2])
        #expect(requests.map { $0["idempotencyKey"] as? String } == ["\(run)/step-1", "\(run)/step-1"])
    }
}
