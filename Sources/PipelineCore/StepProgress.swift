/// Where a batch step reports how far it got, a few times a second: a progress bar on a terminal,
/// structured log lines off one.
public protocol ProgressSink: Sendable {
    /// The step's progress so far; `final` is true for the last report of the step.
    func report(_ progress: StepProgress, final: Bool)
}

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

/// What a run gives its batch steps besides the transport: the journal, the stop signal, where
/// progress goes, and whether to resend items whose fate is unknown.
public struct BatchControl: Sendable {
    /// The run's journal; for a dry run a read-only view of it (to show what is already sent), or nil.
    public var ledger: (any ItemLedger)?
    /// True when this run resumes an earlier attempt, so the journal may know items already.
    public var isResume: Bool
    /// Resend items an earlier attempt left `unknown` (may deliver twice).
    public var resendUnknown: Bool
    /// Fired by SIGINT/SIGTERM.
    public var stop: StopSignal
    /// Where progress goes; nil for none.
    public var progress: (any ProgressSink)?
    /// `--again`: send items even when another run sent the same notification within the dedupe window
    /// (they are counted as resent).
    public var again: Bool

    /// Creates a control; the default journals nothing and never stops.
    public init(ledger: (any ItemLedger)? = nil, isResume: Bool = false, resendUnknown: Bool = false, stop: StopSignal = StopSignal(),
                progress: (any ProgressSink)? = nil, again: Bool = false) {
        self.ledger = ledger
        self.isResume = isResume
        self.resendUnknown = resendUnknown
        self.stop = stop
        self.progress = progress
        self.again = again
    }
}
