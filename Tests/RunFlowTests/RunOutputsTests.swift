import Engine
import Foundation
import PipelineCore
import RunFlow
import Testing

@Suite("RunOutputs: the report and metrics files every end of a run leaves")
struct RunOutputsTests {
    private func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.path + "/RunOutputsTests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    private let report = RunReport(
        pipeline: "digest.yaml", dryRun: false, startedAt: Date(), finishedAt: Date(), status: .partial, steps: [])

    @Test func missingDirectoriesAreMadeBeforeTheRunAndBothFilesAreWrittenAfter() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outputs = RunOutputs(
            report: directory + "/2026/11/23/report.json", metrics: directory + "/textfile/pushline.prom")
        try outputs.prepare()
        #expect(FileManager.default.fileExists(atPath: directory + "/2026/11/23"))
        try outputs.write(report, exitCode: 3)
        let json = try String(contentsOfFile: directory + "/2026/11/23/report.json", encoding: .utf8)
        #expect(json.contains(#""status" : "partial""#) && json.hasSuffix("}\n"))
        let metrics = try String(contentsOfFile: directory + "/textfile/pushline.prom", encoding: .utf8)
        #expect(metrics.contains(#"pushline_run_exit_code{pipeline="digest"} 3"#))
        // The run's own metrics stand: an early-end write after them changes nothing.
        outputs.writeEarly(pipeline: "digest.yaml", dryRun: false, exitCode: 75, message: "m")
        #expect(try String(contentsOfFile: directory + "/textfile/pushline.prom", encoding: .utf8) == metrics)
    }

    @Test func aPathThatIsADirectoryIsAnInputErrorFoundBeforeTheRun() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let error = #expect(throws: RunOutputError.self) { try RunOutputs(report: directory, metrics: nil).prepare() }
        #expect(error?.exitCode == 2)
        #expect(error?.message == "--report '\(directory)' is a directory; give a file path")
    }

    @Test func aRunThatEndsEarlyStillTellsMonitoringItsExitCode() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outputs = RunOutputs(report: nil, metrics: directory + "/m/pushline.prom")
        outputs.writeEarly(pipeline: "/srv/digest.yaml", dryRun: false, exitCode: 75, message: "m")
        let metrics = try String(contentsOfFile: directory + "/m/pushline.prom", encoding: .utf8)
        #expect(metrics.contains(#"pushline_run_exit_code{pipeline="digest"} 75"#))
        #expect(!metrics.contains("pushline_items{"), "no items: the run never reached a step")
    }

    @Test(
        "a run that ends before it starts (its journal unusable) writes a report that says why, and metrics labelled by its name:"
    )
    func anEarlyEndWritesAReportAndNamedMetrics() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outputs = RunOutputs(report: directory + "/report.json", metrics: directory + "/pushline.prom")
        outputs.named("nightly")
        outputs.writeEarly(
            pipeline: "/srv/nightly-v2.yaml", dryRun: false, exitCode: 75,
            message: "the run journal cannot be reached: connection refused")
        let json = try String(contentsOfFile: directory + "/report.json", encoding: .utf8)
        #expect(json.contains(#""status" : "not-started""#) && json.contains(#""exitCode" : 75"#), "\(json)")
        #expect(json.contains(#""name" : "nightly""#) && json.contains("connection refused"), "\(json)")
        let metrics = try String(contentsOfFile: directory + "/pushline.prom", encoding: .utf8)
        #expect(metrics.contains(#"pushline_run_exit_code{pipeline="nightly"} 75"#), "the name:, not the file name")
        // An invalid pipeline's own report stands: an early end after it leaves it alone.
        let invalid = RunOutputs(report: directory + "/invalid.json", metrics: nil)
        try invalid.writeReport(text: #"{"status":"invalid"}"#)
        invalid.writeEarly(pipeline: "p.yaml", dryRun: false, exitCode: 2, message: "m")
        #expect(
            try String(contentsOfFile: directory + "/invalid.json", encoding: .utf8) == "{\"status\":\"invalid\"}\n")
    }

    @Test func aReportThatCannotBeWrittenStillLeavesTheRunsOwnMetrics() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outputs = RunOutputs(report: directory + "/r/report.json", metrics: directory + "/m/pushline.prom")
        try outputs.prepare()
        // The report's path becomes a directory after the check: the write fails.
        try FileManager.default.createDirectory(atPath: directory + "/r/report.json", withIntermediateDirectories: true)
        let error = #expect(throws: RunOutputError.self) { try outputs.write(report, exitCode: 3) }
        #expect(error?.exitCode == 1)
        outputs.writeEarly(pipeline: "digest.yaml", dryRun: false, exitCode: 1, message: "m")
        let metrics = try String(contentsOfFile: directory + "/m/pushline.prom", encoding: .utf8)
        #expect(
            metrics.contains(#"pushline_run_exit_code{pipeline="digest"} 3"#),
            "the run's own code, not the early-end one")
    }

    @Test("a start turned away by the lock leaves the metrics file to the run that holds it, and says so")
    func aLockedStartLeavesTheRunningRunsMetrics() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/pushline.prom"
        try RunOutputs(report: nil, metrics: path).write(report, exitCode: 0)
        let running = try String(contentsOfFile: path, encoding: .utf8)
        let fixture = try RunFlowFixture()
        defer { fixture.remove() }
        let outputs = RunOutputs(report: nil, metrics: path)
        outputs.leaveMetrics(console: fixture.console, because: "another run of this pipeline holds the lock")
        outputs.writeEarly(pipeline: "digest.yaml", dryRun: false, exitCode: 75, message: "m")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == running)
        #expect(
            fixture.warned.contains("--metrics '\(path)' left as it is: another run of this pipeline holds the lock"))
    }

    @Test("a journal left to its default while HOME is unset (cron) is warned about; a named one, or a HOME, is not")
    func unpinnedJournal() {
        let warning = RunStores.unpinnedWarning(nil, environment: ["PATH": "/usr/bin"])
        #expect(
            warning?.contains(
                "chosen because HOME is not set (as under cron); pin it with --journal or PUSHLINE_JOURNAL") == true)
        #expect(RunStores.unpinnedWarning("/var/lib/pushline/journal.sqlite", environment: [:]) == nil)
        #expect(
            RunStores.unpinnedWarning(nil, environment: ["PUSHLINE_JOURNAL": "/var/lib/pushline/journal.sqlite"]) == nil
        )
        #expect(RunStores.unpinnedWarning(nil, environment: ["HOME": "/home/ops"]) == nil)
    }
}
