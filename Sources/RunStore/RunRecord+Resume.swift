import PipelineCore

/// Whether the next start of a pipeline resumes this run or is a new run (the rule `pushline run` follows).
extension RunRecord {
    /// Whether the run stopped before it ran to its end: killed (still `running`, its lock free), stopped by a signal,
    /// or failed mid-way (the hub or the run store went away, a step failed). A run that ran to its end (completed,
    /// partial, its input rejected, or expired) never is.
    package var wasCutOff: Bool {
        switch status {
        case .running, .interrupted: true
        // Runs recorded before `rejected` existed ended `failed` with exit 2: their input was refused.
        case .failed: exitCode != 2
        case .completed, .partial, .rejected, .expired: false
        }
    }

    /// How long after its start a cut-off run may be resumed with the rows it first read: its steps' longest dedupe
    /// window, or the default window when it recorded none.
    package var resumeWindow: Double {
        if let dedupeWindow, dedupeWindow > 0 { return dedupeWindow }
        return Double(BatchOptions.defaultDedupeWindow)
    }

    /// The newer run of the same identity and shard that a later start began instead of resuming this one, when this one
    /// did not complete (it ran to its end partial or rejected, or expired): found among `runs`.
    package func supersededBy(among runs: [RunRecord]) -> RunRecord? {
        guard status != .completed, status != .running else { return nil }
        return runs.filter { $0.identity == identity && $0.shard == shard && ($0.startedAt, $0.id) > (startedAt, id) }
            .min { ($0.startedAt, $0.id) < ($1.startedAt, $1.id) }
    }

    /// What the next start does about this run, the newest of its pipeline identity (and shard), at `now`.
    package func nextStart(now: Double) -> NextStart {
        guard wasCutOff else { return .newRun(after: self) }
        return now < startedAt + resumeWindow ? .resume(self) : .expire(self)
    }

    /// Whether what this run sent still holds back the same notifications at `now`: within its dedupe window, measured
    /// from its start. Past it, its idempotency keys hold nothing back, so a start with the same data sends it again
    /// (a weekly digest to an unchanged segment goes out every week).
    package func holdsBack(at now: Double) -> Bool {
        now < startedAt + resumeWindow
    }
}

/// What a start of a pipeline does about the newest run of its identity.
package enum NextStart: Equatable, Sendable {
    /// Resume this run, cut off within its window: the rows it first read, the items it did not finish.
    case resume(RunRecord)
    /// Close this run, cut off too long ago, as expired; then start a new run.
    case expire(RunRecord)
    /// Start a new run that reads its sources now; this run ran to its end.
    case newRun(after: RunRecord)
}
