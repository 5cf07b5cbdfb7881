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
    package init(stepIndex: Int, stepId: String, counts: ItemCounts, total: Int?, elapsed: Double, dryRun: Bool = false)
    {
        self.stepIndex = stepIndex
        self.stepId = stepId
        self.counts = counts
        self.total = total
        self.elapsed = elapsed
        self.dryRun = dryRun
    }

    /// Items finished per second so far, whatever became of them (what an estimate of the time left divides by).
    package var rate: Double { elapsed > 0 ? Double(counts.total) / elapsed : 0 }

    /// Items sent (or, in a dry run, planned) per second so far: what a hub took. Items held back as duplicates,
    /// skipped, bad or another shard's are not sent and do not count.
    package var sentRate: Double {
        elapsed > 0 ? Double(counts.accepted + counts.failed + counts.unknown + counts.planned) / elapsed : 0
    }
}
