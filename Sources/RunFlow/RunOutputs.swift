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
        if let report { try Self.write(text + "\n", to: report) }
    }

    /// Leaves the metrics file as it is: another run of the pipeline holds the lock, and the file holds that run's
    /// series (which it writes when it ends); says so on standard error.
    package func leaveMetrics(console: Console, because reason: String) {
        guard let metrics else { return }
        metricsWritten.withLock { $0 = true }
        console.errorLine("pushline: --metrics '\(metrics)' left as it is: \(reason)")
    }

    /// The metrics of a run that ended before it had a report (invalid pipeline, lock held, store unusable):
    /// its exit code and no items. Does nothing once the run's own metrics were written; a file that cannot
    /// be written here is left alone (the run's own error is what is reported).
    package func writeEarlyMetrics(pipeline: String, dryRun: Bool, exitCode: Int32) {
        guard let metrics, !metricsWritten.withLock({ $0 }) else { return }
        let report = RunReport(
            pipeline: pipeline, dryRun: dryRun, startedAt: started, finishedAt: Date(), status: .failed, steps: [])
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

/// A report or metrics file that cannot be written.
package struct RunOutputError: Error, Sendable, Equatable {
    /// What is wrong, naming the file.
    package let message: String
    /// 2 when found before the run (nothing ran), 1 when writing after it failed (the run's outcome stands).
    package let exitCode: Int32
}
