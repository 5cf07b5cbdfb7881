import Foundation
import PipelineCore
import RunJournal

/// A live run's journal entry and lock: taken before anything is sent, released when the run ends.
struct JournalledRun {
    let journal: Journal
    let record: RunRecord
    let lock: PipelineLock
    let isResume: Bool

    /// Locks the pipeline, opens the journal, and starts or resumes the run. Returns nil (after saying
    /// so) when the same run already completed and `again` is off: nothing is sent.
    static func begin(_ pipeline: Pipeline, registry: StepRegistry, journalPath: String?, again: Bool, console: Console) throws -> JournalledRun? {
        let path = journalPath ?? Journal.defaultPath(environment: console.environment)
        let absolutePipeline = RunPaths.absolute(pipeline.document)
        let lock: PipelineLock
        do {
            lock = try PipelineLock(pipeline: absolutePipeline, directory: FilePath.directory(of: path) + "/locks", now: console.clock.now())
        } catch let held as PipelineLock.Held {
            console.errorLine("pushline: another run of \(pipeline.document.file) is in progress (\(held.holder)); not started")
            throw ExitStatus.exit(ExitStatus.locked)
        }
        do {
            let journal: Journal
            do { journal = try Journal(path: path) } catch { throw CommandFailure("the run journal: \(error.message)") }
            let identity = RunIdentity.digest(of: pipeline, registry: registry)
            let now = console.clock.now().timeIntervalSince1970
            let pid = getpid()
            let latest: RunRecord?
            do { latest = again ? nil : try journal.latestRun(identity: identity) } catch { throw CommandFailure("the run journal: \(error.message)") }
            if let latest, latest.status == .completed {
                console.line("run \(latest.id) of \(pipeline.document.file) already completed at \(Self.time(latest.endedAt ?? latest.startedAt)); "
                             + "nothing sent (--again starts a fresh run)")
                lock.release()
                return nil
            }
            let record: RunRecord
            do {
                if let latest {
                    record = try journal.resumeRun(id: latest.id, pid: pid, now: now)
                    // A run still marked running while this process holds its lock was killed: abandoned.
                    let was = latest.status == .running ? "abandoned: its process \(latest.pid) is gone" : latest.status.rawValue
                    console.errorLine("pushline: resuming run \(latest.id) (started \(Self.time(latest.startedAt)), \(was))")
                } else {
                    record = try journal.startRun(identity: identity, pipeline: absolutePipeline, pid: pid, now: now)
                }
            } catch { throw CommandFailure("the run journal: \(error.message)") }
            return JournalledRun(journal: journal, record: record, lock: lock, isResume: latest != nil)
        } catch {
            lock.release()
            throw error
        }
    }

    /// Records how the run ended; a journal that cannot be written now is reported, not fatal (every
    /// item is journalled already).
    func finish(_ report: RunReport, exitCode: Int32, console: Console) {
        let status: RunStatus = switch report.status {
        case .succeeded: .completed
        case .partial: .partial
        case .failed: .failed
        case .interrupted: .interrupted
        case .rejected: .failed
        }
        // Items per step, as `runs show` and monitoring read them back: `{"1:send": {"accepted": 4995, …}}`.
        var counts: [String: ItemCounts] = [:]
        for step in report.steps { if let items = step.items { counts["\(step.index):\(step.step)"] = items } }
        do {
            try journal.finishRun(id: record.id, state: status, exitCode: exitCode, summary: JSONOutput.encode(counts),
                                  now: console.clock.now().timeIntervalSince1970)
        } catch {
            console.errorLine("pushline: warning: cannot record the end of run \(record.id) in the journal: \(error.message)")
        }
    }

    static func time(_ epoch: Double) -> String {
        RunReport.timestamp(Date(timeIntervalSince1970: epoch))
    }
}
