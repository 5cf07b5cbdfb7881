import Foundation
import PipelineCore
import RunStore

/// A live run's record in the run store and its lock: taken before anything is sent, released when the run ends.
struct JournalledRun {
    let store: any RunStore
    let record: RunRecord
    let lock: any RunLock
    let isResume: Bool

    /// Locks the pipeline, then starts or resumes its run. Returns nil (after saying so) when the same run
    /// already completed and `again` is off: nothing is sent.
    static func begin(_ pipeline: Pipeline, registry: StepRegistry, store: any RunStore, again: Bool, shard: Shard?,
                      console: Console) async throws(RunFlowError) -> JournalledRun? {
        let absolutePipeline = RunPaths.absolute(pipeline.document)
        let now = console.clock.now().timeIntervalSince1970
        // Starts of the pipeline pass one at a time through its gate, so the check for another split still sending
        // and the taking of this run's lock are one step: two splits started at once cannot both pass the check.
        let gate = try await takeGate(absolutePipeline, pipeline: pipeline, store: store, now: now)
        let outcome: Result<JournalledRun?, RunFlowError>
        do {
            outcome = .success(try await beginPastGate(pipeline, absolutePipeline: absolutePipeline, registry: registry, store: store,
                                                       again: again, shard: shard, now: now, console: console))
        } catch {
            outcome = .failure(error)
        }
        // Released on every path before returning, so the next start never waits on a gate nobody holds.
        await gate.release()
        return try outcome.get()
    }

    /// The start itself, while this process holds the pipeline's start gate.
    private static func beginPastGate(_ pipeline: Pipeline, absolutePipeline: String, registry: StepRegistry, store: any RunStore,
                                      again: Bool, shard: Shard?, now: Double,
                                      console: Console) async throws(RunFlowError) -> JournalledRun? {
        let lock: any RunLock
        do {
            try await refuseOtherSplits(absolutePipeline, pipeline: pipeline, store: store, shard: shard)
            // Each shard has a lock of its own: the parts run at once, each part once.
            switch try await store.lock(pipeline: RunPaths.lockName(absolutePipeline, shard: shard), holder: .current(now: now)) {
            case .acquired(let taken): lock = taken
            case .held(let holder): throw RunFlowError.locked(pipeline: pipeline.document.file, holder: holder)
            }
        } catch let error as RunStoreError {
            throw .store(error)
        } catch let error as RunFlowError {
            throw error
        } catch {
            throw .store("\(error)", kind: .failure)
        }
        do {
            let identity = RunIdentity.digest(of: pipeline, registry: registry)
            if !again, let newest = try await store.runs(identity: identity, limit: 1).first, newest.shard?.count != shard?.count {
                // Rows are placed by the number of parts: the same run split another way would send rows the other
                // split already sent.
                await lock.release()
                throw RunFlowError.shardMismatch(pipeline: pipeline.document.file, run: newest.id, was: newest.shard, asked: shard)
            }
            let latest = again ? nil : try await store.latestRun(identity: identity, shard: shard)
            if let latest, latest.status == .completed {
                let part = shard.map { "shard \($0) of " } ?? ""
                console.line("\(part)run \(latest.id) of \(pipeline.document.file) already completed at \(time(latest.endedAt ?? latest.startedAt)); "
                             + "nothing sent (--again starts a fresh run)")
                await lock.release()
                return nil
            }
            let record: RunRecord
            if let latest {
                record = try await store.resumeRun(id: latest.id, pid: getpid(), now: now, lock: lock)
                // A run still marked running while this process holds its lock was killed: abandoned.
                let was = latest.status == .running ? "abandoned: its process \(latest.pid) is gone" : latest.status.rawValue
                console.errorLine("pushline: resuming run \(latest.id) (started \(time(latest.startedAt)), \(was))")
            } else {
                record = try await store.startRun(identity: identity, pipeline: absolutePipeline, shard: shard, pid: getpid(), now: now)
            }
            return JournalledRun(store: store, record: record, lock: lock, isResume: latest != nil)
        } catch let error as RunStoreError {
            await lock.release()
            throw .store(error)
        } catch let error as RunFlowError {
            throw error
        } catch {
            await lock.release()
            throw .store("\(error)", kind: .failure)
        }
    }

    /// Takes the pipeline's start gate, held by another start only while it checks and locks (milliseconds), so it
    /// is waited for, up to 10 s.
    private static func takeGate(_ absolutePipeline: String, pipeline: Pipeline, store: any RunStore,
                                 now: Double) async throws(RunFlowError) -> any RunLock {
        var holder: LockHolder?
        for attempt in 0..<100 {
            do {
                switch try await store.lock(pipeline: RunPaths.gateName(absolutePipeline), holder: .current(now: now)) {
                case .acquired(let gate): return gate
                case .held(let someone): holder = someone
                }
            } catch {
                throw .store(error)
            }
            if attempt < 99 { try? await Task.sleep(for: .milliseconds(100)) }
        }
        throw .locked(pipeline: pipeline.document.file, holder: holder)
    }

    /// Throws when a run of the pipeline split another way (or not split, or split when this one is not) is still
    /// sending: both would send the same rows. A run marked running whose lock is free was killed and is no obstacle.
    /// `--again` does not lift this: a fresh run split anew would still send alongside the live one.
    private static func refuseOtherSplits(_ absolutePipeline: String, pipeline: Pipeline, store: any RunStore,
                                          shard: Shard?) async throws {
        for other in try await store.runningRuns(pipeline: absolutePipeline, limit: 64) where other.shard?.count != shard?.count {
            if try await store.isLocked(pipeline: RunPaths.lockName(absolutePipeline, shard: other.shard)) {
                throw RunFlowError.otherSplitRunning(pipeline: pipeline.document.file, run: other.id, pid: other.pid, was: other.shard,
                                                     asked: shard)
            }
        }
    }

    /// Records how the run ended; a store that cannot be written now is reported, not fatal (every item is
    /// recorded already).
    func finish(_ report: RunReport, exitCode: Int32, console: Console) async {
        let status: RunStatus = switch report.status {
        case .succeeded: .completed
        case .partial: .partial
        case .failed, .rejected: .failed
        case .interrupted: .interrupted
        }
        do {
            // The whole report (the JSON `run --format json` prints), so `serve`'s GET /v1/runs/{id} and monitoring can
            // read what the run did, not only its counts.
            try await store.finishRun(id: record.id, state: status, exitCode: exitCode, summary: JSONText.encode(report),
                                      now: console.clock.now().timeIntervalSince1970, lock: lock)
        } catch {
            console.errorLine("pushline: warning: cannot record the end of run \(record.id) in the journal: \(error.message)")
        }
    }

    /// `2026-11-22T04:12:00Z`.
    static func time(_ epoch: Double) -> String {
        RunReport.timestamp(Date(timeIntervalSince1970: epoch))
    }
}
