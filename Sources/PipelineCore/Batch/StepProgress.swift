
/// A batch step's progress.
public struct StepProgress: Sendable, Equatable {
    /// 1-based position of the step.
    public var stepIndex: Int
    /// The step's id.
    public var stepId: String
    /// Items so far, by outcome.
    public var counts: ItemCounts
    /// All items, when known in advance (a handle file counted at build time).
    public var total: Int?
    /// Seconds since the step started.
    public var elapsed: Double
    /// True in a dry run: items are planned, never accepted.
    public var dryRun: Bool

    /// Creates a report.
    public init(stepIndex: Int, stepId: String, counts: ItemCounts, total: Int?, elapsed: Double, dryRun: Bool = false) {
        self.stepIndex = stepIndex
        self.stepId = stepId
        self.counts = counts
        self.total = total
        self.elapsed = elapsed
        self.dryRun = dryRun
    }

    /// Items finished per second so far.
    public var rate: Double { elapsed > 0 ? Double(counts.total) / elapsed : 0 }
}
