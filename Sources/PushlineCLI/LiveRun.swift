import HubHTTP
import PipelineCore

/// A live run of a built pipeline, as `run` and `demo` both do it: journalled and locked, stopped cleanly
/// by SIGINT or SIGTERM, sent over one keep-alive HTTP client with retries.
struct LiveRun {
    /// The run journal (nil: `$PUSHLINE_JOURNAL` or the default path).
    var journalPath: String?
    /// Start afresh even when the same run completed or was cut off.
    var again = false
    /// On resume, resend items an earlier attempt left unknown.
    var resendUnknown = false
    /// Where progress goes, if anywhere.
    var progress: (any ProgressSink)?
    /// Receives every request and its answer, signature redacted; nil traces nothing.
    var trace: (@Sendable (HubTrace) -> Void)?

    /// How a live run ended.
    enum Outcome: Equatable {
        /// It ran (or resumed) and ended with this exit code.
        case finished(exitCode: Int32)
        /// The same run had completed: nothing was sent (`begin` said so).
        case alreadyCompleted

        /// The process's exit code: 0 for a run already completed.
        var exitCode: Int32 {
            switch self {
            case .finished(let code): code
            case .alreadyCompleted: ExitStatus.success
            }
        }
    }

    /// Runs `pipeline`, then hands the report and exit code to `finish` while the pipeline's lock and the
    /// signal handling still hold (so reports and metrics are written by this run alone, and a signal
    /// during the writing is a second signal, not death).
    func execute(_ pipeline: Pipeline, registry: StepRegistry, engine: PipelineEngine, console: Console,
                 finish: (RunReport, Int32) async throws -> Void) async throws -> Outcome {
        guard let runs = try JournalledRun.begin(pipeline, registry: registry, journalPath: journalPath, again: again, console: console)
        else { return .alreadyCompleted }
        defer { runs.lock.release() }
        let stop = StopSignal()
        let signals = SignalWatch(stop: stop, console: console)
        defer { signals.cancel() }
        // One HTTP client per run (keep-alive across steps), closed when the run ends.
        let executor = AsyncHTTPExecutor()
        let control = BatchControl(ledger: runs.journal.ledger(for: runs.record), isResume: runs.isResume,
                                   resendUnknown: resendUnknown, stop: stop, progress: progress, again: again)
        if again {
            console.errorLine("pushline: --again: items that a run of this pipeline already sent within the dedupe window are sent again; "
                              + "the report counts them")
        }
        var transport: any HubTransport = RetryingTransport(executor: executor)
        if let trace { transport = TracingTransport(transport, sink: trace) }
        var result = await engine.run(pipeline, mode: .live(transport), batch: control)
        await executor.shutdown()
        result.runId = runs.record.id
        result.resumed = runs.isResume
        let code = ExitStatus.of(result.status, signal: signals.signal)
        runs.finish(result, exitCode: code, console: console)
        try await finish(result, code)
        return .finished(exitCode: code)
    }
}
