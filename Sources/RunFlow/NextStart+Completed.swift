import RunStore

extension NextStart {
    /// The completed run that a new start would only repeat, when its pipeline reads no sources: the run's identity
    /// (the file, resolved references, options and the files its steps read) then covers everything it would send, so
    /// the same identity completed within its dedupe window means nothing is left to do. Nil when the start resumes,
    /// expires, follows a run that did not complete or whose window has passed, or reads sources (those are compared once read, `SourceComparison`). The live start and its
    /// preview both ask here.
    func completedAlready(readsSources: Bool, now: Double) -> RunRecord? {
        guard case .newRun(let run) = self, run.status == .completed, !readsSources, run.holdsBack(at: now) else {
            return nil
        }
        return run
    }

    /// The completed run whose data a new start compares its own with (the same data sends nothing): the run this start
    /// follows, when it completed and still holds back what it sent at `now`.
    func comparedRun(now: Double) -> RunRecord? {
        guard case .newRun(let run) = self, run.status == .completed, run.holdsBack(at: now) else { return nil }
        return run
    }
}
