import Engine
import Foundation
import HubWire
import PipelineCore
import Synchronization

/// Where a run leaves its outcome besides the console: the JSON report (`--report`) and the Prometheus
/// textfile for the node exporter (`--metrics`). Every end of a run writes them, early ends included, so
/// monitoring never reads the last run's success after a run that failed to start.
package final class RunOutputs: Sendable {
    /// The JSON report's path, if any.
    package let report: String?
    /// The metrics textfile's path, if any.
    package let metrics: String?
    private let started: Date
    private let metricsWritten = Mutex(false)
    private let reportWritten = Mutex(false)
    /// The pipeline's `name:` once it is loaded: the label an early end's metrics carry, as the run's would.
    private let name = Mutex<String?>(nil)

    /// Outputs for a run that started at `started`.
    package init(report: String?, metrics: String?, started: Date = Date()) {
        self.report = report
        self.metrics = metrics
        self.started = started
    }

    /// Finds out before anything runs whether the files can be written: makes a missing directory (cron lines
    /// name dated paths under directories nobody made by hand); a path that is a directory, or a directory that
    /// cannot be written, is an error (exit 2).
    package func prepare() throws(RunOutputError) {
        if let report { try Self.checkWritable(report, option: "--report") }
        if let metrics { try Self.checkWritable(metrics, option: "--metrics") }
    }

    /// Writes the report and the metrics of a run that ended with `exitCode`.
    /// Both are tried; the first failure is thrown after (a report that cannot be written must not leave the
    /// metrics saying the run never reached a step).
    package func write(_ result: RunReport, exitCode: Int32) throws(RunOutputError) {
        var failure: RunOutputError?
        if let report {
            reportWritten.withLock { $0 = true }
            do throws(RunOutputError) { try Self.write(JSONText.encode(result) + "\n", to: report) } catch {
                failure = error
            }
        }
        if let metrics {
            metricsWritten.withLock { $0 = true }
            do throws(RunOutputError) {
                try Self.write(
                    MetricsFile.render(result, seconds: Date().timeIntervalSince(started), exitCode: exitCode),
                    to: metrics)
            } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    /// Writes `text` (already JSON: an invalid pipeline's diagnostics) as the report.
    package func writeReport(text: String) throws(RunOutputError) {
        guard let report else { return }
        reportWritten.withLock { $0 = true }
        try Self.write(text + "\n", to: report)
    }

    /// Remembers the pipeline's `name:` (once loaded) for the labels of an early end's metrics.
    package func named(_ pipelineName: String) {
        name.withLock { $0 = pipelineName }
    }

    /// Leaves the metrics file as it is: another run of the pipeline holds the lock, and the file holds that run's
    /// series (which it writes when it ends); says so on standard error.
    package func leaveMetrics(console: Console, because reason: String) {
        guard let metrics else { return }
        metricsWritten.withLock { $0 = true }
        console.errorLine("pushline: --metrics '\(metrics)' left as it is: \(reason)")
    }

    /// The outcome of a run that ended before it had a report of its own (its journal unusable, its `--env-file`, its
    /// name taken, another split running): the metrics (its exit code and no items, labelled with the pipeline's `name:`
    /// once it was loaded) and a report `{"pipeline", "name", "status": "not-started", "message", "exitCode"}`. Each is
    /// left alone once this invocation wrote one; a file that cannot be written here is left alone too (the run's own
    /// error is what is reported).
    package func writeEarly(pipeline: String, dryRun: Bool, exitCode: Int32, message: String) {
        let name = name.withLock { $0 }
        if let report, !reportWritten.withLock({ $0 }) {
            let text = JSONText.encode(
                NotStartedRun(pipeline: pipeline, name: name, message: message, exitCode: exitCode))
            try? Self.checkWritable(report, option: "--report")
            try? Self.write(text + "\n", to: report)
        }
        guard let metrics, !metricsWritten.withLock({ $0 }) else { return }
        var report = RunReport(
            pipeline: pipeline, dryRun: dryRun, startedAt: started, finishedAt: Date(), status: .failed, steps: [])
        report.name = name
        try? Self.checkWritable(metrics, option: "--metrics")
        try? Self.write(
            MetricsFile.render(report, seconds: Date().timeIntervalSince(started), exitCode: exitCode), to: metrics)
    }

    private static func checkWritable(_ path: String, option: String) throws(RunOutputError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw RunOutputError(
                message: "\(option) '\(path)' is a directory; give a file path", exitCode: RunExit.invalidInput)
        }
        let directory = FilePath.directory(of: path)
        if !FileManager.default.fileExists(atPath: directory) {
            do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                throw RunOutputError(
                    message:
                        "\(option) '\(path)': cannot create directory '\(directory)': \(error.localizedDescription)",
                    exitCode: RunExit.invalidInput)
            }
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw RunOutputError(
                message: "\(option) '\(path)': directory '\(directory)' is not writable", exitCode: RunExit.invalidInput
            )
        }
    }

    /// Written atomically: the node exporter never reads half a file.
    private static func write(_ text: String, to path: String) throws(RunOutputError) {
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw RunOutputError(
                message: "cannot write '\(path)': \(error.localizedDescription)", exitCode: RunExit.failure)
        }
    }
}

/// The JSON report of an invocation that ended before its run started (exit 75, 78, 2 or 1): so a report file read
/// after cron's line says why nothing ran.
struct NotStartedRun: Encodable {
    let pipeline: String
    /// The pipeline's `name:`, when it was loaded before the end.
    let name: String?
    let status = "not-started"
    /// What the console said.
    let message: String
    let exitCode: Int32
}

/// A report or metrics file that cannot be written.
package struct RunOutputError: Error, Sendable, Equatable {
    /// What is wrong, naming the file.
    package let message: String
    /// 2 when found before the run (nothing ran), 1 when writing after it failed (the run's outcome stands).
    package let exitCode: Int32
}
