/// Where a batch step reports how far it got, a few times a second: a progress bar on a terminal,
/// structured log lines off one.
package protocol ProgressSink: Sendable {
    /// The step's progress so far; `final` is true for the last report of the step.
    func report(_ progress: StepProgress, final: Bool)
}
