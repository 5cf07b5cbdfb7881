import Engine
import Foundation
import HubWire
import PipelineCore
import RunStore

/// A live run's record in the run store and its lock: taken before anything is sent, released when the run ends.
struct JournalledRun {
    let store: any RunStore
    let record: RunRecord
    /// The run identity's lock: what keeps two processes from sending the same run, so its epoch fences the
    /// ledger's writes and the run's end.
    let lock: any RunLock
    /// The pipeline's lock (by its name): no two versions of one pipeline send at once, wherever their files lie.
    let pathLock: any RunLock
    let isResume: Bool
    /// The run of the same pipeline identity (and shard) that ran to its end before this new one, if any: when it
    /// completed and this run's sources give the same rows, nothing needs to run.
    var previous: RunRecord?
    /// The pipeline's `retention:` (seconds): what `finish` prunes of its runs. Nil: nothing.
    var retention: Double?

    /// How a start came out: a run to send (new or resumed), or nothing to do.
    enum Begun {
        /// A run holding its locks.
        case run(JournalledRun)
        /// The same run completed before (a pipeline without sources, whose identity holds all its input): nothing runs.
        case alreadyCompleted(RunRecord)
    }

    /// Releases both locks.
    func release() async {
        await lock.release()
        await pathLock.release()
    }

    /// Locks the pipeline, then resumes its run that was cut off, or starts a new one. A pipeline that reads no
    /// source (its identity holds every input) whose same run completed is not run again, unless `again`.
    static func begin(
        _ pipeline: Pipeline, registry: StepRegistry, store: any RunStore, again: Bool, shard: Shard?,
        console: Console
    ) async throws(RunFlowError) -> Begun {
        let name = pipeline.document.name
        let now = console.clock.now().timeIntervalSince1970
        // Starts of the pipeline pass one at a time through its gate, so the check for another split still sending
        // and the taking of this run's lock are one step: two splits started at once cannot both pass the check.
        let gate = try await takeGate(name, pipeline: pipeline, store: store, now: now)
        let outcome: Result<Begun, RunFlowError>
        do {
            outcome = .success(
                try await beginPastGate(
                    pipeline, name: name, registry: registry, store: store,
                    again: again, shard: shard, now: now, console: console))
        } catch {
            outcome = .failure(error)
        }
        // Released on every path before returning, so the next start never waits on a gate nobody holds.
        await gate.release()
        return try outcome.get()
    }

    /// The start itself, while this process holds the pipeline's start gate.
    private static func beginPastGate(
        _ pipeline: Pipeline, name: String, registry: StepRegistry, store: any RunStore,
        again: Bool, shard: Shard?, now: Double,
        console: Console
    ) async throws(RunFlowError) -> Begun {
        let identity = RunIdentity.digest(of: pipeline, registry: registry)
        let document = pipeline.document
        let path = RunNames.absolute(document)
        var held: [any RunLock] = []
        func releaseAll() async { for lock in held { await lock.release() } }
        do {
            if let known = try await RunNames.stranger(document, identity: identity, in: store) {
                throw RunFlowError.nameTaken(pipeline: document.file, name: name, known: known.path, seen: known.seenAt)
            }
            // `--again` does not lift this: a fresh run split anew would still send beside the live one.
            if let other = try await RunNames.liveOtherSplit(name, identity: identity, shard: shard, in: store) {
                throw RunFlowError.otherSplitRunning(
                    pipeline: pipeline.document.file, run: other.id, pid: other.pid, was: other.shard,
                    asked: shard)
            }
            // Two locks, each per shard (the parts run at once, each part once). The pipeline's name: no two versions
            // of one pipeline send at once, wherever their files lie (a fixed file started from another checkout while
            // the old one still sends waits its turn). The run's identity: its epoch fences this run's journal writes.
            for lockName in RunNames.lockNames(name, identity: identity, shard: shard) {
                switch try await store.lock(pipeline: lockName, holder: .current(now: now)) {
                case .acquired(let taken): held.append(taken)
                case .held(let holder):
                    await releaseAll()
                    throw RunFlowError.locked(pipeline: pipeline.document.file, holder: holder)
                }
            }
            if !again, let newest = try await store.runs(identity: identity, limit: 1).first,
                newest.shard?.count != shard?.count,
                case .resume = newest.nextStart(now: now)
            {
                // Rows are placed by the number of parts: a run cut off while split one way resumes only split that way
                // (another split would send rows the other already sent). A run that ran to its end holds nothing back.
                await releaseAll()
                throw RunFlowError.shardMismatch(
                    pipeline: pipeline.document.file, run: newest.id, was: newest.shard, asked: shard)
            }
            // Resume what was cut off within its window; else a new run, which reads its sources now (see RunRecord.nextStart).
            var resumable: RunRecord?
            var previous: RunRecord?
            let next = try await again ? nil : store.latestRun(identity: identity, shard: shard)?.nextStart(now: now)
            switch next {
            case .resume(let run)?: resumable = run
            case .expire(let run)?: try await expire(run, store: store, lock: held[1], now: now, console: console)
            case .newRun?: previous = next?.comparedRun(now: now)
            case nil: break
            }
            if let previous = next?.completedAlready(readsSources: pipeline.readsSources, now: now) {
                let part = shard.map { "shard \($0) of " } ?? ""
                console.line(
                    "\(part)run \(previous.id) of \(pipeline.document.file) already completed at \(time(previous.endedAt ?? previous.startedAt)); "
                        + "nothing sent (--again starts a fresh run; journal \(RunStores.display(store.location)))")
                await releaseAll()
                return .alreadyCompleted(previous)
            }
            try await store.recordPipelineHome(
                PipelineHome(
                    name: name, path: path, contentDigest: document.contentDigest,
                    declared: document.declaredName != nil, seenAt: now))
            let record: RunRecord
            if let resumable {
                record = try await store.resumeRun(id: resumable.id, path: path, pid: getpid(), now: now, lock: held[1])
                console.errorLine(
                    "pushline: resuming run \(resumable.id) (started \(time(resumable.startedAt)), \(cutOff(resumable, store: store))) "
                        + "with the rows it first read")
            } else {
                // A new run opens the next generation of its split (or joins the one another part opened), so its spools are
                // its own: it never reads the rows an earlier run read.
                let generation = Self.generation(
                    for: shard, among: try await store.runs(identity: identity, limit: 4 * Shard.maximumCount))
                let window = pipeline.steps.map(\.step.dedupeWindow).max() ?? 0
                record = try await store.startRun(
                    identity: identity, pipeline: name, path: path, shard: shard, generation: generation,
                    dedupeWindow: Double(window), pid: getpid(), now: now)
            }
            // Before any step, what cron's log needs to find this run again: the pipeline, the run and where it is recorded.
            console.errorLine(
                "pushline: pipeline '\(name)' (\(document.file)): \(resumable == nil ? "new run" : "run") \(record.id)"
                    + "\(shard.map { ", shard \($0)" } ?? ""), journal \(RunStores.display(store.location))")
            var begun = JournalledRun(
                store: store, record: record, lock: held[1], pathLock: held[0], isResume: resumable != nil,
                retention: document.retention)
            begun.previous = previous
            return .run(begun)
        } catch let error as RunFlowError {
            throw error
        } catch let error as RunStoreError {
            await releaseAll()
            throw .store(error)
        } catch {
            await releaseAll()
            throw .store("\(error)", kind: .failure)
        }
    }

    /// How a run that was cut off had ended: its status, or why a run still marked running was abandoned.
    private static func cutOff(_ run: RunRecord, store: any RunStore) -> String {
        guard run.status == .running else { return run.status.rawValue }
        return store.locksEndWithTheirProcess
            ? "abandoned: its process \(run.pid) is gone"
            : "abandoned: its process \(run.pid) no longer holds the lock (it ended, or stood still or was cut off from the "
                + "run store longer than the lock lasts; if it still runs, its next write is refused and it sends nothing more)"
    }

    /// Closes a run that was cut off and not resumed within its window as expired: its rows are too old to send now.
    /// Its unknown items stay listed (and keep holding their idempotency keys within the dedupe window).
    private static func expire(
        _ run: RunRecord, store: any RunStore, lock: any RunLock, now: Double,
        console: Console
    ) async throws(RunStoreError) {
        try await store.finishRun(
            id: run.id, state: .expired, exitCode: run.exitCode ?? RunExit.failure, summary: run.summary, now: now,
            lock: lock)
        console.errorLine(
            "pushline: run \(run.id) (started \(time(run.startedAt)), \(cutOff(run, store: store))) was not resumed within "
                + "\(ConfigDuration.format(Int64(run.resumeWindow))) of its start: closed as expired (its unknown items stay listed: "
                + "pushline runs show \(run.id)); this run reads its sources afresh")
    }

    /// The generation a new run of `shard` joins: the newest among the runs split the same way, or, when this part
    /// already ran in it, the next. So the parts of one night's start share a generation (and its spools) whichever
    /// starts first, and `runs show` does not mix them with the parts of an earlier start.
    static func generation(for shard: Shard?, among runs: [RunRecord]) -> Int {
        let split = runs.filter { $0.shard?.count == shard?.count }
        guard let newest = split.map(\.generation).max() else { return 0 }
        return split.contains { $0.generation == newest && $0.shard?.index == shard?.index } ? newest + 1 : newest
    }

    /// Takes the pipeline's start gate, held by another start only while it checks and locks (milliseconds), so it
    /// is waited for, up to 10 s. The first pauses are short (5 ms, doubling to 100 ms): shards started together pass
    /// it one after another, and a pause of 100 ms each cost the last of four about a third of a second on PostgreSQL.
    private static func takeGate(
        _ name: String, pipeline: Pipeline, store: any RunStore,
        now: Double
    ) async throws(RunFlowError) -> any RunLock {
        var holder: LockHolder?
        var pause = Duration.milliseconds(5)
        var waited = Duration.zero
        while true {
            do {
                switch try await store.lock(pipeline: RunNames.gateName(name), holder: .current(now: now)) {
                case .acquired(let gate): return gate
                case .held(let someone): holder = someone
                }
            } catch {
                throw .store(error)
            }
            guard waited < .seconds(10) else { throw .locked(pipeline: pipeline.document.file, holder: holder) }
            try? await Task.sleep(for: pause)
            waited += pause
            pause = min(pause * 2, .milliseconds(100))
        }
    }

    /// Takes a new run that found nothing to do out of the store (its spools with it), so the completed run it repeats
    /// stays the newest; when the store cannot remove it, it is recorded as completed instead, never left running.
    func discard(console: Console) async {
        do {
            _ = try await store.removeRuns([record.id], dryRun: false)
        } catch {
            console.errorLine(
                "pushline: warning: cannot remove run \(record.id), which sent nothing, from the journal (\(error.message)); "
                    + "it is recorded as completed")
            try? await store.finishRun(
                id: record.id, state: .completed, exitCode: RunExit.success, summary: nil,
                now: console.clock.now().timeIntervalSince1970, lock: lock)
        }
    }

    /// Records how the run ended; a store that cannot be written now is reported, not fatal (every item is
    /// recorded already).
    /// Records the end of the run; false when the journal could not record it (the run then still reads as running).
    @discardableResult
    func finish(_ report: RunReport, exitCode: Int32, console: Console) async -> Bool {
        let status: RunStatus =
            switch report.status {
            case .succeeded, .undelivered: .completed
            case .partial: .partial
            case .failed: .failed
            case .rejected: .rejected
            case .interrupted: .interrupted
            }
        do {
            // The whole report (the JSON `run --format json` prints), so `serve`'s GET /v1/runs/{id} and monitoring can
            // read what the run did, not only its counts.
            try await store.finishRun(
                id: record.id, state: status, exitCode: exitCode, summary: JSONText.encode(report),
                now: console.clock.now().timeIntervalSince1970, lock: lock)
        } catch {
            console.errorLine(
                "pushline: warning: cannot record the end of run \(record.id) in the journal: \(error.message)")
            await prune(console: console)
            return false
        }
        await prune(console: console)
        return true
    }

    /// Prunes the pipeline's runs older than its `retention:`, this one spared; a prune that fails is reported, never
    /// fatal: the run itself is done and recorded.
    private func prune(console: Console) async {
        guard let retention else { return }
        let policy = PrunePolicy(olderThan: retention, pipeline: record.pipeline, sparing: record.id)
        do {
            let outcome = try await RunPruning.prune(
                store, policy: policy, dryRun: false, now: console.clock.now().timeIntervalSince1970)
            if outcome.removed.runs > 0 {
                console.errorLine(
                    "pushline: retention: removed \(outcome.removed.runs) run\(outcome.removed.runs == 1 ? "" : "s") of "
                        + "\(record.pipeline) older than \(ConfigDuration.format(Int64(retention))) (\(outcome.removed.items) items)"
                )
            }
            if let problem = outcome.spaceProblem {
                console.errorLine(
                    "pushline: warning: retention: the runs are removed, but their space was not given back: \(problem)"
                )
            }
        } catch {
            console.errorLine("pushline: warning: retention: cannot prune the run journal: \(error.message)")
        }
    }

    /// `2026-11-22T04:12:00Z`.
    static func time(_ epoch: Double) -> String {
        Timestamp.iso8601(Date(timeIntervalSince1970: epoch))
    }
}
