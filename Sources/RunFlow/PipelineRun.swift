import Foundation
import HubHTTP
import PipelineCore
import RunStore

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
    package func execute(_ pipeline: Pipeline, registry: StepRegistry, engine: PipelineEngine, console: Console,
                        finish: (RunReport, Int32) async throws -> Void) async throws -> Outcome {
        let location = RunStores.location(store, environment: console.environment)
        if dryRun {
            return try await dryRun(pipeline, registry: registry, engine: engine, location: location, console: console, finish: finish)
        }
        if let warning = RunStores.unpinnedWarning(store, environment: console.environment) { console.errorLine("pushline: warning: \(warning)") }
        let opened: any RunStore
        do { opened = try await RunStores.open(location, environment: console.environment) } catch { throw RunFlowError.store(error) }
        let begun: JournalledRun.Begun
        do {
            begun = try await JournalledRun.begin(pipeline, registry: registry, store: opened, again: again, shard: shard, console: console)
        } catch {
            await opened.close()
            throw error
        }
        let runs: JournalledRun
        switch begun {
        case .run(let started): runs = started
        case .alreadyCompleted(let completed):
            await opened.close()
            let reason = "run \(completed.id) already completed at \(JournalledRun.time(completed.endedAt ?? completed.startedAt))"
            return .alreadyCompleted(Self.notRun(pipeline, because: reason, completed: completed, clock: console.clock))
        }
        let stop = StopSignal()
        let signals = watchSignals ? SignalWatch(stop: stop, console: console) : nil
        do {
            let outcome: Outcome
            switch try await send(pipeline, engine: engine, runs: runs, stop: stop, signals: signals, console: console) {
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

    /// A dry run: what a live run would do first (from the same decision, said in its first line), then every step
    /// signed and rendered, nothing sent. After a completed run, its sources are read and compared as a live run's
    /// are: the same rows, and it says that a live run would send nothing.
    private func dryRun(_ pipeline: Pipeline, registry: StepRegistry, engine: PipelineEngine, location: String, console: Console,
                        finish: (RunReport, Int32) async throws -> Void) async throws -> Outcome {
        let preview = again ? .start : await Self.preview(pipeline, registry: registry, store: store, shard: shard, console: console)
        console.errorLine("pushline: dry run of pipeline '\(pipeline.document.name)' (\(pipeline.document.file)): \(preview.plan); "
                          + "journal \(RunStores.display(location))")
        let ledger = await RunStores.dryRunLedger(for: pipeline, location: location, environment: console.environment) {
            console.errorLine("pushline: warning: \($0)")
        }
        var control = BatchControl(ledger: ledger, progress: progress, again: again, shard: shard)
        let compared: (any RunStore)?
        if case .newRun(let completed) = preview, let opened = try? await RunStores.openExisting(location, environment: console.environment) {
            compared = opened
            control.sourcesRead = SourceComparison(store: opened, completed: completed).unchanged
        } else {
            compared = nil
        }
        let result = await RunSpan.record(pipeline, runId: nil, resumed: false) {
            await engine.run(pipeline, mode: .dryRun, batch: control)
        }
        await compared?.close()
        if let reason = result.unchanged {
            console.errorLine("pushline: dry run: a live run would send nothing: \(reason)")
        }
        // A dry run ends with the code its live run would: failed 1, rejected input 2, partial 3.
        let code = RunExit.of(result.status, signal: nil)
        try await finish(result, code)
        return .finished(exitCode: code)
    }

    /// What sending a started run came to.
    private enum Sent {
        /// The run ran (or resumed) to this report and exit code, recorded in the store.
        case sent(RunReport, Int32)
        /// Its sources gave the rows a completed run sent: nothing else ran, and the new run was taken out of the store.
        case unchanged(RunReport)
    }

    private func send(_ pipeline: Pipeline, engine: PipelineEngine, runs: JournalledRun, stop: StopSignal, signals: SignalWatch?,
                      console: Console) async throws -> Sent {
        // One HTTP client per run (keep-alive across steps), closed when the run ends; as many
        // connections and requests in flight as the busiest step asks for.
        let executor = AsyncHTTPExecutor(connectionsPerHost: pipeline.concurrency, ownThread: true)
        var control = BatchControl(ledger: runs.store.ledger(for: runs.record, lock: runs.lock), isResume: runs.isResume,
                                   resendUnknown: resendUnknown, stop: stop, progress: progress, again: again, shard: shard,
                                   pace: runs.store, paceScope: shard == nil ? nil : runs.record.identity,
                                   runIsLive: RunNames.liveness(runs.store))
        control.run = (runs.record.id, runs.record.resumes + 1)
        // A new run after a completed one first reads its sources: only when they differ is it a run (and a front end
        // told of it); else it is taken out again and the completed run answers.
        let record = runs.record
        if let previous = runs.previous, previous.status == .completed {
            let comparison = SourceComparison(store: runs.store, completed: previous)
            control.sourcesRead = { [onStart] digests in
                let reason = await comparison.unchanged(digests)
                if reason == nil { onStart?(record) }
                return reason
            }
        } else {
            onStart?(record)
        }
        if again {
            console.errorLine("pushline: --again: items that a run of this pipeline already sent within the dedupe window are sent again; "
                              + "the report counts them")
        }
        var transport: any HubTransport = RetryingTransport(executor: executor, maxConcurrent: pipeline.concurrency)
        if let trace { transport = TracingTransport(transport, sink: trace) }
        var result = await RunSpan.record(pipeline, runId: runs.record.id, resumed: runs.isResume) {
            await engine.run(pipeline, mode: .live(transport), batch: control)
        }
        await executor.shutdown()
        if let reason = result.unchanged, let previous = runs.previous {
            // Nothing of the new run is kept: the completed run stays the newest, and the next start compares with it.
            await runs.discard(console: console)
            let part = shard.map { "shard \($0) of " } ?? ""
            console.line("\(part)run \(previous.id) of \(pipeline.document.file) already completed at "
                         + "\(JournalledRun.time(previous.endedAt ?? previous.startedAt)); \(reason); nothing sent, and run \(runs.record.id) is not kept (--again starts a fresh run)")
            result.runId = previous.id
            return .unchanged(result)
        }
        result.runId = runs.record.id
        result.resumed = runs.isResume
        let code = RunExit.of(result.status, signal: signals?.signal)
        await runs.finish(result, exitCode: code, console: console)
        return .sent(result, code)
    }

    /// The report of a start that ran nothing because `completed` did the same work: every step not run, for `reason`.
    static func notRun(_ pipeline: Pipeline, because reason: String, completed: RunRecord, clock: WallClock) -> RunReport {
        let now = clock.now()
        let steps = pipeline.steps.map { built in
            var record = StepRecord(index: built.index, step: built.id, location: built.location.description, status: .skipped,
                                    summary: "not run: \(reason)")
            record.id = built.declaredId
            record.name = built.name
            return record
        }
        var report = RunReport(pipeline: pipeline.document.file, dryRun: false, startedAt: now, finishedAt: now, status: .succeeded, steps: steps)
        report.runId = completed.id
        report.name = pipeline.document.name
        report.unchanged = reason
        return report
    }

    /// What a live run of `pipeline` (of one part of it, with `shard`) would do if it started now, without
    /// starting it: nothing is created.
    package static func preview(_ pipeline: Pipeline, registry: StepRegistry, store: String?, shard: Shard? = nil,
                               console: Console) async -> Preview {
        let location = RunStores.location(store, environment: console.environment)
        guard let opened = (try? await RunStores.openExisting(location, environment: console.environment)) ?? nil else { return .start }
        let preview = await preview(pipeline, registry: registry, opened: opened, shard: shard, now: console.clock.now().timeIntervalSince1970)
        await opened.close()
        return preview
    }

    private static func preview(_ pipeline: Pipeline, registry: StepRegistry, opened: any RunStore, shard: Shard?, now: Double) async -> Preview {
        let name = pipeline.document.name
        let identity = RunIdentity.digest(of: pipeline, registry: registry)
        if let known = (try? await RunNames.stranger(pipeline.document, identity: identity, in: opened)) ?? nil {
            return .nameTaken(known)
        }
        for lockName in RunNames.lockNames(name, identity: identity, shard: shard) where (try? await opened.isLocked(pipeline: lockName)) == true {
            return .locked
        }
        if let other = (try? await RunNames.liveOtherSplit(name, identity: identity, shard: shard, in: opened)) ?? nil {
            return .otherSplitRunning(other)
        }
        if let newest = try? await opened.runs(identity: identity, limit: 1).first, newest.shard?.count != shard?.count,
           case .resume = newest.nextStart(now: now) {
            return .splitDifferently(newest)
        }
        guard let latest = try? await opened.latestRun(identity: identity, shard: shard) else { return .start }
        switch latest.nextStart(now: now) {
        case .resume(let run): return .resume(run)
        case .expire(let run): return .expire(run)
        case .newRun(let run) where run.status == .completed: return pipeline.readsSources ? .newRun(after: run) : .completed(run)
        case .newRun: return .start
        }
    }

    /// What a live run would do now.
    package enum Preview: Equatable, Sendable {
        /// The store knows a pipeline of the same name as another file, and this one has no `name:`: it would stop
        /// with exit 2 (`RunFlowError.nameTaken`).
        case nameTaken(PipelineHome)
        /// Another run holds the pipeline's lock (or this part's): it would exit 75.
        case locked
        /// This run, split another way (or not split), is sending now: it would exit 75.
        case otherSplitRunning(RunRecord)
        /// The newest run with the same identity was cut off while split another way: it would stop with exit 2 unless
        /// `--again`.
        case splitDifferently(RunRecord)
        /// Start a new run (no run before it, or the one before ended partial, failed on its input, or expired).
        case start
        /// Start a new run that reads its sources; if they give the rows this completed run sent, nothing is sent.
        case newRun(after: RunRecord)
        /// Resume this run, cut off within its window (interrupted, failed mid-way, or abandoned when it shows `running`).
        case resume(RunRecord)
        /// Close this run, cut off longer ago than its window, as expired; then start a new run.
        case expire(RunRecord)
        /// Nothing: this same run completed, and the pipeline reads no source (its identity holds every input).
        case completed(RunRecord)

        /// What a live run would do, in words (a dry run's first line).
        package var plan: String {
            switch self {
            case .nameTaken(let home):
                "a live run would stop with exit 2: the journal knows another pipeline of this name (last started from \(home.path))"
            case .locked: "a live run would exit 75: another run of this pipeline holds its lock"
            case .otherSplitRunning(let run): "a live run would exit 75: run \(run.id) of this pipeline is sending, split another way"
            case .splitDifferently(let run):
                "a live run would stop with exit 2: run \(run.id) was cut off while split \(run.shard.map { "in \($0.count) parts" } ?? "whole")"
            case .start: "a live run would start a new run, reading its sources now"
            case .newRun(let run):
                "a live run would start a new run, reading its sources now; if they give the rows run \(run.id) sent, it sends nothing"
            case .resume(let run):
                "a live run would resume run \(run.id) (\(run.status == .running ? "abandoned" : run.status.rawValue)) with the rows it first "
                    + "read; this dry run reads the sources now"
            case .expire(let run):
                "a live run would close run \(run.id), cut off too long ago, as expired, and start a new run reading its sources now"
            case .completed(let run):
                "a live run would send nothing: run \(run.id) completed at \(RunReport.timestamp(Date(timeIntervalSince1970: run.endedAt ?? run.startedAt)))"
            }
        }
    }
}
