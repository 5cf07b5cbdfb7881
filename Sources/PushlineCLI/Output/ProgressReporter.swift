import Foundation
import PipelineCore
import RunFlow

/// Shows batch progress: a one-line bar on a terminal (standard error); off one (cron, systemd) it
/// hands reports to `fallback`, the structured log lines.
struct ProgressReporter: ProgressSink {
    let console: Console
    let terminal: Bool
    let fallback: (any ProgressSink)?

    func report(_ progress: StepProgress, final: Bool) {
        let counts = progress.counts
        if terminal, let done = progress.pluginDone {
            var line = "[\(progress.stepIndex) \(progress.stepId)] \(done)"
            if let total = progress.total, total > 0 { line += "/\(total) \(Self.bar(Double(done) / Double(total)))" }
            console.err("\r\u{1B}[K" + line + " · as the plugin reports it" + (final ? "\n" : ""))
            return
        }
        if terminal {
            // A one-item step (a single send) needs no bar.
            if final, counts.total <= 1 { return }
            var line = "[\(progress.stepIndex) \(progress.stepId)] \(counts.total)"
            if let total = progress.total, total > 0 {
                line += "/\(total) \(Self.bar(Double(counts.total) / Double(total)))"
            }
            // A dry run sends nothing: its items are planned ("would send"), never accepted.
            line += progress.dryRun ? " · \(counts.planned) would send" : " · \(counts.accepted) accepted"
            if counts.failed > 0 { line += " · \(counts.failed) failed" }
            if counts.unknown > 0 { line += " · \(counts.unknown) unknown" }
            if counts.skipped > 0 { line += " · \(counts.skipped) done earlier" }
            if counts.duplicates > 0 { line += " · \(counts.duplicates) already sent" }
            if counts.bad > 0 { line += " · \(counts.bad) bad" }
            line += String(format: " · %.0f/s", progress.sentRate)
            if let total = progress.total, progress.rate > 0, !final {
                line += " · ETA \(Self.clock(Double(total - counts.total) / progress.rate))"
            }
            // \r and erase-to-end redraw the line in place; the last report leaves it standing.
            console.err("\r\u{1B}[K" + line + (final ? "\n" : ""))
            return
        }
        fallback?.report(progress, final: final)
    }

    private static func bar(_ fraction: Double) -> String {
        let width = 20
        let filled = max(0, min(width, Int((fraction * Double(width)).rounded(.down))))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }

    private static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 3600
            ? String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
            : String(format: "%d:%02d", whole / 60, whole % 60)
    }
}
