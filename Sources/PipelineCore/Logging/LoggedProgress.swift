import Foundation
import Logging

/// Progress as log lines (`progress`, then `step finished`), at most one per step every `every`
/// seconds: what cron and systemd keep of a long run.
package final class LoggedProgress: ProgressSink, @unchecked Sendable {
    private let logger: Logger
    private let every: Double
    private let lock = NSLock()
    private var last: [Int: Double] = [:]

    /// Logs through a `pushline` logger at `level` (nil for an unknown level name).
    package init?(level: String, every: Double = 10) {
        guard let logger = PushlineLogging.logger(label: "pushline", level: level) else { return nil }
        self.logger = logger
        self.every = every
    }

    package func report(_ progress: StepProgress, final: Bool) {
        let due = lock.withLock { () -> Bool in
            // A plugin's first word is logged at once (it may be all there is before a long silence); then every `every`.
            let first = progress.pluginDone != nil && last[progress.stepIndex] == nil
            guard final || first || progress.elapsed - (last[progress.stepIndex] ?? 0) >= every else { return false }
            last[progress.stepIndex] = progress.elapsed
            return true
        }
        guard due else { return }
        if let done = progress.pluginDone {
            var metadata: Logger.Metadata = ["step": "\(progress.stepIndex):\(progress.stepId)", "done": "\(done)",
                                             "elapsed": .string(String(format: "%.1f", progress.elapsed))]
            if let total = progress.total { metadata["total"] = "\(total)" }
            logger.info("plugin progress", metadata: metadata)
            return
        }
        let counts = progress.counts
        var metadata: Logger.Metadata = [
            "step": "\(progress.stepIndex):\(progress.stepId)", "failed": "\(counts.failed)", "unknown": "\(counts.unknown)",
            "skipped": "\(counts.skipped)", "duplicates": "\(counts.duplicates)", "bad": "\(counts.bad)",
            "rate": .string(String(format: "%.1f", progress.rate)), "elapsed": .string(String(format: "%.1f", progress.elapsed)),
        ]
        // A dry run sends nothing: it logs what it would send ("planned"), never "accepted".
        if progress.dryRun { metadata["planned"] = "\(counts.planned)" } else { metadata["accepted"] = "\(counts.accepted)" }
        if let total = progress.total { metadata["total"] = "\(total)" }
        logger.info(final ? (progress.dryRun ? "dry run step finished" : "step finished") : (progress.dryRun ? "dry run progress" : "progress"),
                    metadata: metadata)
    }
}
