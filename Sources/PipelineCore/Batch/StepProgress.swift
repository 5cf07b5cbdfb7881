
/// A batch step's progress.
package struct StepProgress: Sendable, Equatable {
    /// 1-based position of the step.
    package var stepIndex: Int
    /// The step's id.
    package var stepId: String
    /// Items so far, by outcome.
    package var counts: ItemCounts
    /// All items, when known in advance (a handle file counted at build time).
    package var total: Int?
    /// Seconds since the step started.
    package var elapsed: Double
    /// True in a dry run: items are planned, never accepted.
    package var dryRun: Bool
    /// How much of its work a plugin says it has done (its `progress` messages, of `total` when it said): a plugin
    /// step reports this instead of items.
    package var pluginDone: Int?

    /// Creates a report.
    package init(stepIndex: Int, stepId: String, counts: ItemCounts, total: Int?, elapsed: Double, dryRun: Bool = false) {
        self.stepIndex = stepIndex
        self.stepId = stepId
        self.counts = counts
        self.total = total
        self.elapsed = elapsed
        self.dryRun = dryRun
    }

    /// Items finished per second so far.
    package var rate: Double { elapsed > 0 ? Double(counts.total) / elapsed : 0 }
}
