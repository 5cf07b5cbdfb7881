import Logging
import PipelineCore

/// What a run gives its batch steps besides the transport: the journal, the stop signal, where
/// progress goes, and whether to resend items whose fate is unknown.
package struct BatchControl: Sendable {
    /// The run's journal; for a dry run a read-only view of it (to show what is already sent), or nil.
    package var ledger: (any ItemLedger)?
    /// True when this run resumes an earlier attempt, so the journal may know items already.
    package var isResume: Bool
    /// Resend items an earlier attempt left `unknown` (may deliver twice).
    package var resendUnknown: Bool
    /// Fired by SIGINT/SIGTERM.
    package var stop: StopSignal
    /// Where progress goes; nil for none.
    package var progress: (any ProgressSink)?
    /// `--again`: send items even when another run sent the same notification within the dedupe window
    /// (they are counted as resent).
    package var again: Bool
    /// `--shard I/N`: only rows of this part are run (the others are counted `otherShards`); nil for all rows.
    package var shard: Shard?
    /// The run store's pace, shared with every process that sends to the same hub through it: pauses after
    /// throttling, and hubs' `rate:` budgets. Nil paces each process by itself (no journal, a dry run).
    package var pace: (any HubPace)?
    /// For the parts of a sharded run, the run's identity: a step's `rate:` is then one budget for all the parts,
    /// kept in `pace`. Nil: a step's `rate:` paces this process.
    package var paceScope: String?
    /// Whether the run with this id is still going (its process holds the run's lock). An item whose key another run
    /// marked `sending` is then waited for, to come to a duplicate or be sent here, instead of being reported of
    /// unknown fate while that run still sends it. Nil: nothing is waited for.
    package var runIsLive: (@Sendable (String) async -> Bool)?
    /// The journal's id of the run and which attempt of it this is (1 for the first start); nil for a dry run or a
    /// run without a journal. Plugins are told both.
    package var run: (id: String, attempt: Int)?
    /// Asked once the run's sources are read (`RunnableStep.readsSource`), before any other step runs, with the digest of
    /// each source's rows by step position: nil to go on, or why nothing needs to run (the same rows completed
    /// before). Nil: the run always goes on.
    package var sourcesRead: (@Sendable (_ digests: [Int: String]) async -> String?)?

    /// Creates a control; the default journals nothing and never stops.
    package init(
        ledger: (any ItemLedger)? = nil, isResume: Bool = false, resendUnknown: Bool = false,
        stop: StopSignal = StopSignal(),
        progress: (any ProgressSink)? = nil, again: Bool = false, shard: Shard? = nil, pace: (any HubPace)? = nil,
        paceScope: String? = nil, runIsLive: (@Sendable (String) async -> Bool)? = nil
    ) {
        self.ledger = ledger
        self.isResume = isResume
        self.resendUnknown = resendUnknown
        self.stop = stop
        self.progress = progress
        self.again = again
        self.shard = shard
        self.pace = pace
        self.paceScope = paceScope
        self.runIsLive = runIsLive
    }
}

/// Where a step context keeps its batch controls.
private enum BatchControlKey: StepContextKey {
    static var defaultValue: BatchControl { BatchControl() }
}

extension StepContext {
    /// The journal, stop signal and progress sink for batch steps.
    package var batch: BatchControl {
        get { extensions[BatchControlKey.self] }
        set { extensions[BatchControlKey.self] = newValue }
    }

    /// Creates a context with the run's batch controls.
    package init(
        logger: Logger, clock: WallClock, document: PipelineDocument, state: RunState, isDryRun: Bool,
        transport: any HubTransport, retryPolicy: RetryPolicy = RetryPolicy(), stepIndex: Int = 1, batch: BatchControl
    ) {
        self.init(
            logger: logger, clock: clock, document: document, state: state, isDryRun: isDryRun, transport: transport,
            retryPolicy: retryPolicy, stepIndex: stepIndex)
        self.batch = batch
    }
}
