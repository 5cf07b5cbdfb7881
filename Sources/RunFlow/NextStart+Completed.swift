import RunStore

extension NextStart {
    /// The completed run that a new start would only repeat, when its pipeline reads no sources: the run's identity
    /// (the file, resolved references, options and the files its steps read) then covers everything it would send, so
    /// the same identity completed means nothing is left to do. Nil when the start resumes, expires, follows a run that
    /// did not complete, or reads sources (those are compared once read, `SourceComparison`). The live start and its
    /// preview both ask here.
    func completedAlready(readsSources: Bool) -> RunRecord? {
        guard case .newRun(let run) = self, run.status == .completed, !readsSources else { return nil }
        return run
    }
}
