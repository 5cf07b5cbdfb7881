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
    /// What the layers under the engine give a step besides all this, each under its key (the run store's journal and
    /// batch controls: `context.batch`), so the step API names none of them.
    package var extensions = StepContextExtensions()
    /// What the input check found in the step's input, when it has one (its record count is the
    /// progress total).
    public var inputCheck: InputCheck?
    /// What the steps before this one handed on, by their `id:`.
    package var earlierOutputs = EarlierOutputs()

    /// Creates a context.
    package init(
        logger: Logger, clock: WallClock, document: PipelineDocument, state: RunState, isDryRun: Bool,
        transport: any HubTransport, retryPolicy: RetryPolicy = RetryPolicy(), stepIndex: Int = 1
    ) {
        self.logger = logger
        self.clock = clock
        self.document = document
        self.state = state
        self.isDryRun = isDryRun
        self.transport = transport
        self.retryPolicy = retryPolicy
        self.stepIndex = stepIndex
    }
}

/// Values a layer under the engine attaches to a step's context, one per key type: the step API declares the storage,
/// the layer the key and an accessor (`extension StepContext { var batch: BatchControl }` in the run store).
package struct StepContextExtensions: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// Nothing attached: every key reads its default.
    package init() {}

    /// The value attached under `key`, else its default.
    package subscript<Key: StepContextKey>(_ key: Key.Type) -> Key.Value {
        get { values[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}

/// The key of a value a layer attaches to step contexts.
package protocol StepContextKey {
    /// The value's type.
    associatedtype Value: Sendable
    /// What a context without one reads.
    static var defaultValue: Value { get }
}
