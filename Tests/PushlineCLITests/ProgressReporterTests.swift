import Foundation
import PipelineCore
import RunFlow
import Synchronization
import Testing

@testable import PushlineCLI

/// A plugin's `progress` messages: a line redrawn in place on a terminal, a log line under cron.
@Suite struct ProgressReporterTests {
    /// A console whose standard error is kept, on a terminal or not.
    private func console(terminal: Bool, _ err: Captured) -> Console {
        Console(
            out: { _ in }, err: { text in err.text.withLock { $0 += text } }, environment: [:], clock: .system,
            isTerminal: terminal)
    }

    /// What the console wrote to standard error.
    final class Captured: Sendable {
        let text = Mutex("")
    }

    private func progress(done: Int, total: Int?) -> StepProgress {
        var progress = StepProgress(stepIndex: 1, stepId: "members", counts: ItemCounts(), total: total, elapsed: 2)
        progress.pluginDone = done
        return progress
    }

    @Test("on a terminal a plugin's progress is one line redrawn in place, with a bar when it says its total")
    func pluginProgressOnATerminal() {
        let err = Captured()
        let fallback = Recorded()
        let reporter = ProgressReporter(console: console(terminal: true, err), terminal: true, fallback: fallback)
        reporter.report(progress(done: 250, total: 1_000), final: false)
        reporter.report(progress(done: 1_000, total: 1_000), final: true)
        #expect(
            err.text.withLock { $0 }
                == "\r\u{1B}[K[1 members] 250/1000 [#####...............] · as the plugin reports it"
                + "\r\u{1B}[K[1 members] 1000/1000 [####################] · as the plugin reports it\n")
        #expect(fallback.reports.withLock { $0 }.isEmpty, "no log line on a terminal")
    }

    @Test("off a terminal (cron) a plugin's progress goes to the log lines, and nothing is drawn")
    func pluginProgressUnderCron() {
        let err = Captured()
        let fallback = Recorded()
        let reporter = ProgressReporter(console: console(terminal: false, err), terminal: false, fallback: fallback)
        reporter.report(progress(done: 40, total: nil), final: false)
        #expect(err.text.withLock { $0 }.isEmpty)
        #expect(fallback.reports.withLock { $0 }.map(\.pluginDone) == [40])
    }

    /// The log lines' side, kept.
    final class Recorded: ProgressSink {
        let reports = Mutex<[StepProgress]>([])
        func report(_ progress: StepProgress, final: Bool) { reports.withLock { $0.append(progress) } }
    }
}
