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
    /// Told the run's id once a live run has started or resumed (holding the lock), before its first item:
    /// a front end that answers before the run ends (`serve`) answers with it.
    package var onStart: (@Sendable (RunRecord) -> Void)?

    /// Creates a run; every option off.
    package init(store: String? = nil) {
        self.store = store
    }

    /// How a run ended.
    package enum Outcome: Equatable, Sendable {
        /// It ran (or resumed) and ended with this exit code.
        case finished(exitCode: Int32)
        /// The same run had completed: nothing was sent (the console was told).
        case alreadyCompleted

        /// The process's exit code: 0 for a run already completed.
        package var exitCode: Int32 {
            switch self {
            case .finished(let code): code
            case .alreadyCompleted: RunExit.success
            }
        }
    }

    /// Runs `pipeline`, then hands the report and exit code to `finish` while the pipeline's lock and the
    /// signal handling still hold (so reports and metrics are written by this run alone, and a signal during
    /// the writing is a second signal, not death). Throws `RunFlowError` when a live run cannot start.
    package func execute(_ pipeline: Pipeline, registry: StepRegistry, engine: PipelineEngine, console: Console,
                        finish: (RunReport, Int32) async throws -> Void) async throws -> Outcome {
        let location = RunStores.location(store, environment: console.environment)
        if dryRun {
            let ledger = await RunStores.dryRunLedger(for: pipeline, location: location, environment: console.environment) {
                console.errorLine("pushline: warning: \($0)")
            }
            let result = await RunSpan.record(pipeline, runId: nil, resumed: false) {
                await engine.run(pipeline, mode: .dryRun, batch: BatchControl(ledger: ledger, progress: progress, again: again, shard: shard))
            }
            // A dry run ends with the code its live run would: failed 1, rejected input 2, partial 3.
            let code = RunExit.of(result.status, signal: nil)
            try await finish(result, code)
            return .finished(exitCode: code)
        }
        let opened: any RunStore
        do { opened = try await RunStores.open(location, environment: console.environment) } catch { throw RunFlowError.store(error) }
        let begun: JournalledRun?
        do {
            begun = try await JournalledRun.begin(pipeline, registry: registry, store: opened, again: again, shard: shard, console: console)
        } catch {
            await opened.close()
            throw error
        }
        guard let runs = begun else {
            await opened.close()
            return .alreadyCompleted
        }
        onStart?(runs.record)
        let stop = StopSignal()
        let signals = watchSignals ? SignalWatch(stop: stop, console: console) : nil
        do {
            let (result, code) = try await send(pipeline, engine: engine, runs: runs, stop: stop, signals: signals, console: console)
            try await finish(result, code)
            signals?.cancel()
            await runs.release()
            await opened.close()
            return .finished(exitCode: code)
        } catch {
            signals?.cancel()
            await runs.release()
            await opened.close()
            throw error
        }
    }

    private func send(_ pipeline: Pipeline, engine: PipelineEngine, runs: JournalledRun, stop: StopSignal, signals: SignalWatch?,
                      console: Console) async throws -> (RunReport, Int32) {
        // One HTTP client per run (keep-alive across steps), closed when the run ends; as many
        // connections and requests in flight as the busiest step asks for.
        let executor = AsyncHTTPExecutor(connectionsPerHost: pipeline.concurrency, ownThread: true)
        let control = BatchControl(ledger: runs.store.ledger(for: runs.record, lock: runs.lock), isResume: runs.isResume,
                                   resendUnknown: resendUnknown, stop: stop, progress: progress, again: again, shard: shard,
                                   pace: runs.store, paceScope: shard == nil ? nil : runs.record.identity,
                                   runIsLive: RunNames.liveness(runs.store))
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
        result.runId = runs.record.id
        result.resumed = runs.isResume
        let code = RunExit.of(result.status, signal: signals?.signal)
        await runs.finish(result, exitCode: code, console: console)
        return (result, code)
    }

    /// What a live run of `pipeline` (of one part of it, with `shard`) would do if it started now, without
    /// starting it: nothing is created.
    package static func preview(_ pipeline: Pipeline, registry: StepRegistry, store: String?, shard: Shard? = nil,
                               console: Console) async -> Preview {
        let location = RunStores.location(store, environment: console.environment)
        guard let opened = (try? await RunStores.openExisting(location, environment: console.environment)) ?? nil else { return .start }
        let preview = await preview(pipeline, registry: registry, opened: opened, shard: shard)
        await opened.close()
        return preview
    }

    private static func preview(_ pipeline: Pipeline, registry: StepRegistry, opened: any RunStore, shard: Shard?) async -> Preview {
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
        if let newest = try? await opened.runs(identity: identity, limit: 1).first, newest.shard?.count != shard?.count {
            return .splitDifferently(newest)
        }
        guard let latest = try? await opened.latestRun(identity: identity, shard: shard) else { return .start }
        return latest.status == .completed ? .completed(latest) : .resume(latest)
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
        /// The newest run with the same identity was split another way: it would stop with exit 2 unless `--again`.
        case splitDifferently(RunRecord)
        /// Start a new run.
        case start
        /// Resume this run (interrupted, partial, failed, or abandoned when it shows `running`).
        case resume(RunRecord)
        /// Nothing: this same run completed.
        case completed(RunRecord)
    }
}
