import Foundation
import Logging
import PipelineCore

/// Progress as log lines (`progress`, then `step finished`), at most one per step every `every`
/// seconds: what cron and systemd keep of a long run.
package final class LoggedProgress: ProgressSink, @unchecked Sendable {
    /// `value` to one decimal, as the lines show it.
    static func tenths(_ value: Double) -> Double {
        (value * 10).rounded() / 10
    }

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
            var metadata: Logger.Metadata = [
                "step": "\(progress.stepIndex):\(progress.stepId)", "done": .stringConvertible(done),
                "elapsed": .stringConvertible(Self.tenths(progress.elapsed)),
            ]
            if let total = progress.total { metadata["total"] = .stringConvertible(total) }
            logger.info("plugin progress", metadata: metadata)
            return
        }
        let counts = progress.counts
        // Numbers as numbers (JSON log lines carry them so); the rate counts what was sent, not what was held back.
        var metadata: Logger.Metadata = [
            "step": "\(progress.stepIndex):\(progress.stepId)", "failed": .stringConvertible(counts.failed),
            "unknown": .stringConvertible(counts.unknown), "skipped": .stringConvertible(counts.skipped),
            "duplicates": .stringConvertible(counts.duplicates), "bad": .stringConvertible(counts.bad),
            "rate": .stringConvertible(Self.tenths(progress.sentRate)),
            "elapsed": .stringConvertible(Self.tenths(progress.elapsed)),
        ]
        // A dry run sends nothing: it logs what it would send ("planned"), never "accepted".
        if progress.dryRun {
            metadata["planned"] = .stringConvertible(counts.planned)
        } else {
            metadata["accepted"] = .stringConvertible(counts.accepted)
        }
        if let total = progress.total { metadata["total"] = .stringConvertible(total) }
        logger.info(
            final
                ? (progress.dryRun ? "dry run step finished" : "step finished")
                : (progress.dryRun ? "dry run progress" : "progress"),
            metadata: metadata)
    }
}
