import HubWire

/// A step ready to run: what the engine asks of it before and while it runs. A `Step` type builds one from its
/// options; a process plugin's step and a step whose options wait for earlier outputs are ones too.
public protocol RunnableStep: Sendable {
    /// Reads the step's whole input (a `for-each` file, a device file) before the run sends anything:
    /// counts its records and finds the malformed ones. The engine checks every step first, so a bad row
    /// in a later step's file stops the run before an earlier step sends. Nil for a step without such input.
    func checkInput(in context: StepContext) async throws -> InputCheck?

    /// The hubs the step talks to and the right each request needs, so `pushline check` can prove them
    /// before a run. Empty for a step that sends nothing.
    var access: [HubAccess] { get }

    /// The most hub requests the step has in flight at once, so a run opens enough connections for
    /// its busiest step. 1 for a step that sends one request at a time or none.
    var concurrency: Int { get }

    /// Seconds an idempotency key the step accepted keeps the same item from being done again (its
    /// `dedupe-window`); 0 for a step that keeps no keys. The run store keeps a run at least this long after it ends.
    var dedupeWindow: Int64 { get }

    /// True for a step a resumed run must not run again once it completed, but read back from the journal: one that
    /// acts on a hub (a cancel would find nothing left to cancel), or one whose outputs come from outside the run (a
    /// query's rows, which the table may no longer hold). Offline steps run again: they are cheap and exact.
    var recordsCompletion: Bool { get }

    /// True for a step that only reads rows from outside the run (a database, an API) and uses no earlier step's
    /// output. The engine runs such steps before any other, so a run knows whether its data changed since the last
    /// run that completed before it sends anything; the step's record keeps its place in the report.
    var readsSource: Bool { get }

    /// The columns of its rows output `output`, when they are known before the run (a SQLite query prepared, a
    /// plugin's declared columns), so `validate` checks a later step's `$(column)` references against them as
    /// against a CSV header. Nil when only the run knows.
    func columns(of output: String) -> [String]?

    /// The row columns the step's `for-each` reads (its `$(column)` references, idempotency and shard keys); empty
    /// for a step that reads no rows.
    var columnsRead: [String] { get }

    /// Does the step's work.
    func run(in context: StepContext) async throws -> StepResult
}

extension RunnableStep {
    /// Most steps read no input file.
    public func checkInput(in context: StepContext) async throws -> InputCheck? { nil }

    /// Most steps talk to no hub.
    public var access: [HubAccess] { [] }

    /// Most steps send one request at a time.
    public var concurrency: Int { 1 }

    /// Most steps keep no idempotency keys.
    public var dedupeWindow: Int64 { 0 }

    /// A step that talks to a hub is recorded; an offline one runs again.
    public var recordsCompletion: Bool { !access.isEmpty }

    /// Most steps are not sources of rows.
    public var readsSource: Bool { false }

    /// Most steps hand on no rows, or rows whose columns only the run knows.
    public func columns(of output: String) -> [String]? { nil }

    /// Most steps read no rows.
    public var columnsRead: [String] { [] }
}

/// A kind of pipeline step written in Swift (`sign`, `render`, …), each in its own module: it documents its YAML
/// keys and outputs once, decodes and validates its options in `build` without any I/O beyond reading local files,
/// and does its work in `run`. Steps throw `StepFailure`; the engine stamps the step id and YAML location, so steps
/// never format locations themselves. `StepKind(MyStep.self)` registers one.
public protocol Step: RunnableStep, SendableMetatype {
    /// The YAML key that selects this step, e.g. `sign`.
    static var id: String { get }
    /// One line saying what the step does.
    static var summary: String { get }
    /// Every key the step accepts, with type, default and meaning.
    static var options: [OptionSpec] { get }
    /// YAML examples of the step, as they appear under `steps:`.
    static var examples: [String] { get }
    /// The values the step hands to later steps, each set in its result's `outputs` when it runs.
    static var outputs: [OutputSpec] { get }
    /// Spellings of other steps an earlier release accepted that are now this step, read with a warning.
    static var formerSpellings: [StepMigration] { get }
    /// Keys of other steps an earlier release accepted that did this step's work, read as this step with a warning.
    static var formerSplits: [StepSplit] { get }

    /// Decodes and validates options, reporting every problem through `options.diagnostics`.
    /// Returns nil when the step cannot be built.
    static func build(_ options: OptionReader, in context: BuildContext) -> Self?
}

extension Step {
    /// A step that declares no outputs hands nothing on.
    public static var outputs: [OutputSpec] { [] }

    /// Most steps took no other step's spelling over.
    public static var formerSpellings: [StepMigration] { [] }

    /// Most steps took no other step's work over.
    public static var formerSplits: [StepSplit] { [] }
}
