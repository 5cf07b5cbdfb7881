import CommandTestSupport
import Foundation
import ProcessTestSupport
import Testing

/// SIGTERM and SIGINT to `pushline run` while a plugin step works: the plugin is gone within 5 s of the signal (its
/// run stops it, it does not finish its minute of work), `pushline` exits 128 + the signal, and the same command then
/// resumes the run, telling the plugin the next attempt with the same key.
@Suite(.serialized) struct PluginSignalProcessTests {
    /// A folder with `recorded.yaml`, one step of the recorder plugin, and `slow`, so that the plugin works for a minute.
    func slowRecorder() throws -> (directory: String, pipeline: String) {
        let directory = NSTemporaryDirectory() + "pushline-plugin-signal-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "".write(toFile: directory + "/slow", atomically: true, encoding: .utf8)
        let pipeline = directory + "/recorded.yaml"
        try """
        version: 1
        name: recorded
        plugins:
          recorder: { command: [python3, \(CommandRunner.root)/Tests/PushlineCLITests/Inputs/plugins/recorder.py], timeout: 5m }
        steps:
          - id: members
            recorder: { folder: "\(directory)" }

        """.write(toFile: pipeline, atomically: true, encoding: .utf8)
        return (directory, pipeline)
    }

    /// The run requests the recorder got, in order.
    func requests(_ directory: String) throws -> [[String: Any]] {
        try String(contentsOfFile: directory + "/requests.jsonl", encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test(
        "SIGTERM or SIGINT while a plugin works: the plugin is gone within 5 s, pushline exits 143 or 130, and the same command resumes the run",
        arguments: [SIGTERM, SIGINT], JournalKind.all)
    func aSignalStopsThePluginAtOnce(_ signal: Int32, _ kind: JournalKind) async throws {
        let (directory, pipeline) = try slowRecorder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["PUSHLINE_JOURNAL": try await kind.make(directory)]
        let first = try PushlineProcess(["run", pipeline], environment: environment)
        // Logged under cron (no terminal): the plugin has its request and is at work.
        _ = try await first.waitForOutput(containing: "plugin progress")
        let plugin = try #require(Int32(try String(contentsOfFile: directory + "/pid", encoding: .utf8)))
        #expect(kill(plugin, 0) == 0, "the plugin is running before the signal")

        kill(first.process.processIdentifier, signal)
        #expect(
            ProcessEnd.wait(for: plugin, within: .seconds(5)),
            "the plugin outlived the signal to its run by more than 5 s: \(first.stdout)")
        let status = try await first.waitForExit()
        #expect(status == 128 + signal, "\(first.stdout)")
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(first.stdout.contains("pushline: \(name) received"), "\(first.stdout)")
        #expect(first.stdout.contains("stopped with the run before plugin 'recorder' finished"), "\(first.stdout)")
        let run = try #require(try requests(directory).first?["run"] as? String)

        try FileManager.default.removeItem(atPath: directory + "/slow")
        let resumed = try PushlineProcess(["run", pipeline], environment: environment)
        #expect(try await resumed.waitForExit() == 0, "\(resumed.stdout)")
        #expect(resumed.stdout.contains("pushline: resuming run \(run)"), "\(resumed.stdout)")
        let all = try requests(directory)
        #expect(all.map { $0["run"] as? String } == [run, run])
        #expect(all.map { $0["attempt"] as? Int } == [1, 2])
        #expect(all.map { $0["idempotencyKey"] as? String } == ["\(run)/step-1", "\(run)/step-1"])
    }
}
