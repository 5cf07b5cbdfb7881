import Engine
import Foundation
import HubHTTP
import PipelineCore
import RunStore
import Synchronization

/// A run of a built pipeline, as `run`, `demo` and `serve` all do it.
///
/// A live run is recorded in the run store and locked, stopped cleanly by SIGINT or SIGTERM, and sent over
/// one keep-alive HTTP client with retries. A dry run sends nothing and writes nothing: it reads the store
/// (never creating it) to show which items an earlier run already sent.
package struct PipelineRun: Sendable {
    /// The run store's location (nil: `$PUSHLINE_JOURNAL` or the default SQLite file).
    package var store: String?
    /// Send nothing: show what would be sent.
    package var dryRun = false
    /// Start afresh even when the same run completed or was cut off, and send items a run already sent.
    package var again = false
    /// On resume, resend items an earlier attempt left unknown.
    package var resendUnknown = false
    /// Where progress goes, if anywhere.
    package var progress: (any ProgressSink)?
    /// Receives every request and its answer, signature redacted; nil traces nothing.
    package var trace: (@Sendable (HubTrace) -> Void)?
    /// Watch SIGINT and SIGTERM during a live run (off for a front end that handles signals itself).
    package var watchSignals = true
    /// `--shard I/N`: run only this part of the rows, as one shard of the run; nil for every row.
    package var shard: Shard?
    /// Told the run's id once a live run has started or resumed (holding the lock), before its first item; a new run
    /// after a completed one, once its sources gave other rows (else it is no run: the outcome is `alreadyCompleted`).
    /// A front end that answers before the run ends (`serve`) answers with it.
    package var onStart: (@Sendable (RunRecord) -> Void)?
    /// The certificates hubs' may chain to besides the system's (`PUSHLINE_CA_FILE`, read by the front end before the run).
    package var trust: HubTrust = .system
    /// Sends every request of the run instead of a keep-alive HTTP client: `pushline test`'s emulator in the process.
    /// Nil (the default) sends over HTTP.
    package var executor: (any HTTPExecutor)?
    /// Waits out a retry's delay; nil waits the real time. `pushline test` moves its clock instead, so a case with
    /// faults takes no longer than one without.
    package var retrySleep: (@Sendable (Double) async -> Void)?
    /// Ends the run as SIGTERM would when requested (requests in flight finish, the rest waits for a resume); nil: a
    /// signal of the run's own. `pushline test` stops a run at a crash point with it.
    package var stop: StopSignal?

    /// Creates a run; every option off.
    package init(store: String? = nil) {
        self.store = store
    }

    /// How a run ended.
    package enum Outcome: Equatable, Sendable {
        /// It ran (or resumed) and ended with this exit code.
        case finished(exitCode: Int32)
        /// The same run had completed, or a new run read the rows a completed run sent: nothing was sent (the console
        /// was told). The report says why, every step not run but the sources it read.
        case alreadyCompleted(RunReport)

        /// The process's exit code: 0 for a run already completed.
        package var exitCode: Int32 {
            switch self {
            case .finished(let code): code
            case .alreadyCompleted: RunExit.success
            }
        }

        /// True when nothing ran because the same work had completed.
        package var isAlreadyCompleted: Bool {
            if case .alreadyCompleted = self { true } else { false }
        }
    }

    /// Runs `pipeline`, then hands the report and exit code to `finish` while the pipeline's lock and the
    /// signal handling still hold (so reports and metrics are written by this run alone, and a signal during
    /// the writing is a second signal, not death). Throws `RunFlowError` when a live run cannot start.
    package func execute(
        _ pipeline: Pipeline, registry: StepRegistry, engine: PipelineEngine, console: Console,
        finish: (RunReport, Int32) async throws -> Void
    ) async throws -> Outcome {
        let location = RunStores.location(store, environment: console.environment)
        if dryRun {
            return try await dryRun(
                pipeline, registry: registry, engine: engine, location: location, console: console, finish: finish)
        }
        if let warning = RunStores.unpinnedWarning(store, environment: console.environment) {
            console.errorLine("pushline: warning: \(warning)")
        }
        let opened: any RunStore
        do { opened = try await RunStores.open(location, environment: console.environment) } catch {
            throw RunFlowError.store(error)
        }
        let begun: JournalledRun.Begun
        do {
            begun = try await JournalledRun.begin(
                pipeline, registry: registry, store: opened, again: again, shard: shard, console: console)
        } catch {
            await opened.close()
            throw error
        }
        let runs: JournalledRun
        switch begun {
        case .run(let started): runs = started
        case .alreadyCompleted(let completed):
            await opened.close()
            let reason =
                "run \(completed.id) already completed at \(JournalledRun.time(completed.endedAt ?? completed.startedAt))"
            return .alreadyCompleted(Self.notRun(pipeline, because: reason, completed: completed, clock: console.clock))
        }
        let stop = self.stop ?? StopSignal()
        let signals = watchSignals && console.ownsSignals ? await SignalWatch(stop: stop, console: console) : nil
        do {
            let outcome: Outcome
            switch try await send(pipeline, engine: engine, runs: runs, stop: stop, signals: signals, console: console)
            {
            case .sent(let result, let code):
                try await finish(result, code)
                outcome = .finished(exitCode: code)
            case .unchanged(let result):
                outcome = .alreadyCompleted(result)
            }
            signals?.cancel()
            await runs.release()
            await opened.close()
            return outcome
        } catch {
            signals?.cancel()
            await runs.release()
            await opened.close()
            throw error
        }
    }

    /// What sending a started run came to.
    private enum Sent {
        /// The run ran (or resumed) to this report and exit code, recorded in the store.
        case sent(RunReport, Int32)
        /// Its sources gave the rows a completed run sent: nothing else ran, and the new run was taken out of the store.
        case unchanged(RunReport)
    }

    private func send(
        _ pipeline: Pipeline, engine: PipelineEngine, runs: JournalledRun, stop: StopSignal, signals: SignalWatch?,
        console: Console
    ) async throws -> Sent {
        // One HTTP client per run (keep-alive across steps), closed when the run ends; as many
        // connections and requests in flight as the busiest step asks for.
        let executor: any HTTPExecutor
        var client: HTTP1Client?
        if let given = self.executor {
            executor = given
        } else {
            let made = HTTP1Client(connectionsPerHost: pipeline.concurrency, ownThread: true, trust: trust)
            (executor, client) = (made, made)
        }
        var control = BatchControl(
            ledger: runs.store.ledger(for: runs.record, lock: runs.lock), isResume: runs.isResume,
            resendUnknown: resendUnknown, stop: stop, progress: progress, again: again, shard: shard,
            pace: runs.store, paceScope: shard == nil ? nil : runs.record.identity,
            runIsLive: RunNames.liveness(runs.store))
        control.run = (runs.record.id, runs.record.resumes + 1)
        // A new run after a completed one first reads its sources: only when they differ is it a run (and a front end
        // told of it); else it is taken out again and the completed run answers.
        let record = runs.record
        let told = Once()
        let tell: @Sendable () -> Void = { [onStart] in
            if told.first() { onStart?(record) }
        }
        if let previous = runs.previous, previous.status == .completed {
            let comparison = SourceComparison(store: runs.store, completed: previous)
            control.sourcesRead = { digests in
                let reason = await comparison.unchanged(digests)
                if reason == nil { tell() }
                return reason
            }
        } else {
            tell()
        }
        if again {
            console.errorLine(
                "pushline: --again: items that a run of this pipeline already sent within the dedupe window are sent again; "
                    + "the report counts them")
        }
        var transport: any HubTransport =
            if let retrySleep {
                RetryingTransport(
                    executor: executor, maxConcurrent: pipeline.concurrency, sleep: retrySleep,
                    now: { console.clock.now().timeIntervalSince1970 })
            } else {
                RetryingTransport(executor: executor, maxConcurrent: pipeline.concurrency)
            }
        if let trace { transport = TracingTransport(transport, sink: trace) }
        var result = await RunSpan.record(pipeline, runId: runs.record.id, resumed: runs.isResume) {
            await engine.run(pipeline, mode: .live(transport), batch: control)
        }
        await client?.shutdown()
        if let reason = result.unchanged, let previous = runs.previous {
            // Nothing of the new run is kept: the completed run stays the newest, and the next start compares with it.
            await runs.discard(console: console)
            let part = shard.map { "shard \($0) of " } ?? ""
            console.line(
                "\(part)run \(previous.id) of \(pipeline.document.file) already completed at "
                    + "\(JournalledRun.time(previous.endedAt ?? previous.startedAt)); \(reason); nothing sent, and run \(runs.record.id) is not kept (--again starts a fresh run)"
            )
            result.runId = previous.id
            return .unchanged(result)
        }
        // A run whose input check stopped it before its sources were read is a run too (rejected): told now.
        tell()
        result.runId = runs.record.id
        result.resumed = runs.isResume
        let code = RunExit.of(result.status, signal: signals?.signal)
        // A run whose end the journal did not record still reads as running, and resumes: its copies stay.
        if await runs.finish(result, exitCode: code, console: console) {
            await Self.discardFileCopies(of: pipeline, after: result, shard: shard, ledger: control.ledger)
        }
        return .sent(result, code)
    }

    /// The report of a start that ran nothing because `completed` did the same work: every step not run, for `reason`.
    static func notRun(_ pipeline: Pipeline, because reason: String, completed: RunRecord, clock: WallClock)
        -> RunReport
    {
        let now = clock.now()
        let steps = pipeline.steps.map { built in
            var record = StepRecord(
                index: built.index, step: built.id, location: built.location.description, status: .skipped,
                summary: "not run: \(reason)")
            record.id = built.declaredId
            record.name = built.name
            return record
        }
        var report = RunReport(
            pipeline: pipeline.document.file, dryRun: false, startedAt: now, finishedAt: now, status: .succeeded,
            steps: steps)
        report.runId = completed.id
        report.name = pipeline.document.name
        report.unchanged = reason
        return report
    }

}

/// What a run that ran to its end does with the copies of its `for-each` files.
extension PipelineRun {
    /// The copies of its `for-each` files a run that ran to its end kept (`FileSpooler`): it is never resumed, and a later
    /// run compares with their digests alone, so their content goes (a split run's other parts may still read them).
    static func discardFileCopies(
        of pipeline: Pipeline, after result: RunReport, shard: Shard?, ledger: (any ItemLedger)?
    ) async {
        guard shard == nil, result.status != .interrupted, result.status != .failed, let spool = ledger?.rowSpool else {
            return
        }
        for built in pipeline.steps where built.forEachFile != nil {
            try? await spool.discardLines(step: built.index, source: FileSpooler.source(split: nil))
        }
    }
}

/// True the first time it is asked, false ever after: a front end is told of its run once, a dry run says its verdict
/// once.
final class Once: Sendable {
    private let asked = Mutex(false)

    func first() -> Bool {
        asked.withLock { asked in
            defer { asked = true }
            return !asked
        }
    }
}
