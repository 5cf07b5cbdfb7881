import CommandTestSupport
import Foundation
import Testing

/// What `pushline runs list` and `runs show` say of a run's history: how often it was resumed (`resumed N×`), that a
/// later start superseded it (and by which run), and that it expired, its unknown items still listed.
///
/// The runs are `pushline` run in this process with clocks of their own (minutes apart, then past the 12 h window a
/// cut-off run may be resumed in), against `pushline emulator` that drops every send's connection after reading the
/// request: each send's fate is unknown.
@Suite struct RunsHistoryTextTests {
    /// A folder with `history.yaml`: a send to u-1 (its connection dropped: unknown), then a send to a hub the emulator
    /// does not have (failed), so every attempt of the run is cut off by a failure and the next start resumes it. Without
    /// `failing`, only the first: the run ends partial, and the next start is a new run.
    func scratch(failing: Bool = true) throws -> (directory: String, pipeline: String) {
        let directory = try emulatorScratch(
            "runs-history", extra: "faults:\n  - { drop-connection: true, rate: 1, operations: [send] }")
        let pipeline = directory + "/history.yaml"
        try """
        version: 1
        name: history
        hubs:
          main: { connection: "${env:NH_CONNECTION}", hub: myhub }
          gone: { connection: "${env:NH_CONNECTION}", hub: nohub }
        templates:
          digest: { platform: apns, body: '{"aps":{"alert":"$(message)"}}' }
        steps:
          - id: digest
            send: { hub: main, audience: "$UserId:{u-1}", properties: { message: "hello" } }
        \(failing ? "  - id: other\n    send: { hub: gone, audience: \"$UserId:{u-2}\", properties: { message: \"hello\" } }" : "")

        """.write(toFile: pipeline, atomically: true, encoding: .utf8)
        return (directory, pipeline)
    }

    /// The id of the run whose start `output` announces.
    func runId(_ output: CommandOutput) throws -> String {
        let line = try #require(
            output.err.split(separator: "\n").first { $0.hasPrefix("pushline: pipeline 'history' (") }, "\(output)")
        let id = try #require(line.split(separator: " ").first { $0.hasPrefix("20") }, "\(line)")
        return String(id.trimmingCharacters(in: CharacterSet(charactersIn: ",")))
    }

    /// The line of `runs list` for run `id`.
    func listed(_ id: String, in output: CommandOutput) throws -> String {
        String(try #require(output.out.split(separator: "\n").first { $0.hasPrefix(id) }, "\(output)"))
    }

    @Test(
        "runs list and runs show say how often a run was resumed, that a later start expired it and superseded it by which run, and still list its unknown items"
    )
    func resumedExpiredAndSuperseded() async throws {
        let (directory, pipeline) = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let emulator = try await EmulatorProcess.start(["--config", directory + "/emulator.yaml"])
        let connection = try #require(emulator.connections.first { $0.contains("DefaultFullSharedAccessSignature") })
        let environment = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite", "NH_CONNECTION": connection]
        // The first night runs on the real clock (the emulator checks the tokens' expiry by it); the later starts later.
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }
        func pushline(_ arguments: [String], _ seconds: Double) async -> CommandOutput {
            await CommandRunner.run(arguments, environment: environment, now: at(seconds))
        }

        let first = await pushline(["run", pipeline], 0)
        #expect(first.status == 1, "\(first)")
        #expect(first.out.contains("1 unknown"), "\(first)")
        let cutOff = try runId(first)
        for (attempt, seconds) in [(1, 60.0), (2, 120.0)] {
            let resumed = await pushline(["run", pipeline], seconds)
            #expect(resumed.status == 1, "\(resumed)")
            #expect(
                resumed.err.contains("pushline: resuming run \(cutOff) (started "), "attempt \(attempt): \(resumed)")
            #expect(try runId(resumed) == cutOff)
        }

        // Resumed twice, not yet expired nor superseded.
        let list = await pushline(["runs", "list"], 180)
        #expect(list.status == 0, "\(list)")
        let line = try listed(cutOff, in: list)
        #expect(line.contains(" failed ") && line.contains("exit 1, resumed 2×  history"), "\(line)")
        #expect(!line.contains("superseded"), "\(line)")
        let show = await pushline(["runs", "show", cutOff], 180)
        #expect(show.status == 0, "\(show)")
        #expect(show.out.hasPrefix("run \(cutOff): failed (exit 1)\n"), "\(show)")
        #expect(show.out.contains(", resumed 2×\n"), "\(show)")
        #expect(!show.out.contains("superseded") && !show.out.contains("expired"), "\(show)")

        // Past the window: the next start closes it as expired and reads afresh, as a new run.
        let late = await pushline(["run", pipeline], 43_200 + 1)
        #expect(
            late.err.contains("pushline: run \(cutOff) (started ") && late.err.contains("closed as expired"), "\(late)")
        let newer = try runId(late)
        #expect(newer != cutOff && late.err.contains("new run \(newer)"), "\(late)")

        let after = await pushline(["runs", "list"], 43_260)
        #expect(after.status == 0, "\(after)")
        #expect(after.out.hasPrefix(newer), "newest first: \(after)")
        let expired = try listed(cutOff, in: after)
        #expect(expired.contains(" expired "), "\(expired)")
        #expect(expired.contains("exit 1, resumed 2×, superseded by \(newer)  history"), "\(expired)")
        #expect(!(try listed(newer, in: after)).contains("superseded"), "\(after)")

        let shown = await pushline(["runs", "show", cutOff], 43_260)
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.out.hasPrefix("run \(cutOff): expired (exit 1)\n"), "\(shown)")
        #expect(
            shown.out.contains(
                "  it was cut off and not resumed within its dedupe window; a later start closed it and read its sources afresh\n"
            ), "\(shown)")
        #expect(
            shown.out.contains(
                "  superseded by run \(newer): the next start read its sources afresh instead of resuming this run (its unknown items stay listed here)\n"
            ), "\(shown)")
        #expect(shown.out.contains(", resumed 2×\n"), "\(shown)")
        #expect(
            shown.out.contains("unknown (not resent; check the devices, then `pushline runs resolve \(cutOff)"),
            "\(shown)")
        #expect(shown.out.contains("\n  send to '$UserId:{u-1}' #1 (step 1, row 1, 1 attempt)\n"), "\(shown)")
        let items = await pushline(["runs", "show", cutOff, "--items", "--state", "unknown"], 43_260)
        #expect(items.status == 0 && items.out.contains("unknown"), "\(items)")
        #expect(!items.out.contains("no items"), "\(items)")
        #expect(try await emulator.process.stop() == 0)
    }

    @Test(
        "a run that ended partial is not resumed: runs list and runs show say which new run superseded it, its unknown items still listed"
    )
    func partialSuperseded() async throws {
        let (directory, pipeline) = try scratch(failing: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let emulator = try await EmulatorProcess.start(["--config", directory + "/emulator.yaml"])
        let connection = try #require(emulator.connections.first { $0.contains("DefaultFullSharedAccessSignature") })
        let environment = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite", "NH_CONNECTION": connection]
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        func pushline(_ arguments: [String], _ seconds: Double) async -> CommandOutput {
            await CommandRunner.run(arguments, environment: environment, now: start.addingTimeInterval(seconds))
        }

        let first = await pushline(["run", pipeline], 0)
        #expect(first.status == 3, "\(first)")
        let partial = try runId(first)
        let second = await pushline(["run", pipeline], 60)
        let newer = try runId(second)
        #expect(newer != partial && !second.err.contains("resuming"), "\(second)")

        let list = await pushline(["runs", "list"], 120)
        let line = try listed(partial, in: list)
        #expect(line.contains(" partial ") && line.contains("exit 3, superseded by \(newer)  history"), "\(line)")
        #expect(!line.contains("resumed"), "\(line)")
        let shown = await pushline(["runs", "show", partial], 120)
        #expect(shown.out.hasPrefix("run \(partial): partial (exit 3)\n"), "\(shown)")
        #expect(shown.out.contains("  superseded by run \(newer): the next start read its sources afresh"), "\(shown)")
        #expect(!shown.out.contains("expired") && !shown.out.contains("resumed"), "\(shown)")
        #expect(shown.out.contains("\n  send to '$UserId:{u-1}' #1 (step 1, row 1, 1 attempt)\n"), "\(shown)")
        #expect(try await emulator.process.stop() == 0)
    }
}
