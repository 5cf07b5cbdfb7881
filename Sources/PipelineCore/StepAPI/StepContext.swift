import Logging

/// What a running step gets: logger, clock, the hubs, the run's shared state and its mode.
///
/// Steps never build their own logger or client; everything comes through here so tests and the
/// engine control it.
public struct StepContext: Sendable {
    /// Logger carrying the step id in its metadata. Never log secrets.
    public var logger: Logger
    /// The time source.
    public var clock: WallClock
    /// The loaded document (declarations, directory for relative paths).
    public var document: PipelineDocument
    /// Outputs left by earlier steps.
    package var state: RunState
    /// True for `--dry-run`: do everything offline, send nothing.
    public var isDryRun: Bool
    /// How requests reach hubs (a recorder in dry runs).
    package var transport: any HubTransport
    /// Retry rules for requests.
    package var retryPolicy: RetryPolicy
    /// The step's 1-based position in the pipeline (journal keys use it).
    public var stepIndex: Int
    /// The step's `name:`, when it has one: progress lines and the journal show it instead of the step's kind.
    public var stepName: String?
    /// The step's `id:`, when it has one (later steps use its outputs by it).
    public var stepId: String?
    /// The journal, stop signal and progress sink for batch steps.
    package var batch: BatchControl
    /// What the input check found in the step's input, when it has one (its record count is the
    /// progress total).
    public var inputCheck: InputCheck?
    /// What the steps before this one handed on, by their `id:`.
    package var earlierOutputs = EarlierOutputs()

    /// Creates a context.
    package init(
        logger: Logger, clock: WallClock, document: PipelineDocument, state: RunState, isDryRun: Bool,
        transport: any HubTransport, retryPolicy: RetryPolicy = RetryPolicy(), stepIndex: Int = 1,
        batch: BatchControl = BatchControl()
    ) {
        self.logger = logger
        self.clock = clock
        self.document = document
        self.state = state
        self.isDryRun = isDryRun
        self.transport = transport
        self.retryPolicy = retryPolicy
        self.stepIndex = stepIndex
        self.batch = batch
    }
}
