import PipelineCore

/// What one case came to.
package struct CaseResult: Sendable {
    /// The test file.
    package var file: String
    /// The case's name.
    package var name: String
    /// Where the case is written.
    package var location: SourceLocation
    /// Every check that failed, in the order they were made; empty when the case passed.
    package var failures: [TestFailure]
    /// How long the case took, in seconds.
    package var seconds: Double
    /// What the runs printed (their reports), shown with a failure.
    package var output: String
    /// The case's snapshot as its runs made it, when the case keeps one (`snapshot: true`).
    package var snapshot: String? = nil
    /// Which of the pipeline's steps ran and were skipped in the case's runs.
    package var coverage: CaseCoverage? = nil

    /// True when every check held.
    package var passed: Bool { failures.isEmpty }
}

/// One check that did not hold.
package struct TestFailure: Sendable, Equatable {
    /// The run it is about (`run 1`, `idempotent re-run`).
    package var run: String
    /// Where the expectation is written in the test file (or the case, for what the runner found).
    package var location: SourceLocation
    /// What did not hold, in one line.
    package var message: String
    /// Expected and actual, when there are values to show: a unified diff, the template properties, …
    package var detail: String?
}
