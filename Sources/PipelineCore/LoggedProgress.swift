import Foundation
import Logging

/// Progress as log lines (`progress`, then `step finished`), at most one per step every `every`
/// seconds: what cron and systemd keep of a long run.
public final class LoggedProgress: ProgressSink, @unchecked Sendable {
    private let logger: Logger
    private let every: Double
    private let lock = NSLock()
    private var last: [Int: Double] = [:]

    /// Logs through a `pushline` logger at `level` (nil for an unknown level name).
    public init?(level: String, every: Double = 10) {
        guard let logger = PushlineLogging.logger(label: "pushline", level: level) else { return nil }
        self.logger = logger
        self.every = every
    }

    public func report(_ progress: StepProgress, final: Bool) {
        let due = lock.withLock { () -> Bool in
            guard final || progress.elapsed - (last[progress.stepIndex] ?? 0) >= every else { return false }
            last[progress.stepIndex] = progress.elapsed
            return true
        }
        guard due else { return }
        let counts = progress.counts
        logger.info(final ? "step finished" : "progress", metadata: [
            "step": "\(progress.stepIndex):\(progress.stepId)", "accepted": "\(counts.accepted)", "failed": "\(counts.failed)",
            "unknown": "\(counts.unknown)", "skipped": "\(counts.skipped)", "rate": .string(String(format: "%.1f", progress.rate)),
            "elapsed": .string(String(format: "%.1f", progress.elapsed)),
        ])
    }
}
