import HubWire
/// A kind of pipeline step (`sign`, `render`, …). Each lives in its own module.
///
/// A step type documents its YAML keys, decodes and validates its options in `build` without any
/// I/O beyond reading local files, and does its work in `run`. Steps throw `StepFailure`; the engine
/// stamps the step id and YAML location, so steps never format locations themselves.
public protocol Step: Sendable, SendableMetatype {
    /// The YAML key that selects this step, e.g. `sign`.
    static var id: String { get }
    /// One line saying what the step does.
    static var summary: String { get }
    /// Every key the step accepts, with type, default and meaning.
    static var options: [OptionSpec] { get }
    /// YAML examples of the step, as they appear under `steps:`.
    static var examples: [String] { get }

    /// Decodes and validates options, reporting every problem through `options.diagnostics`.
    /// Returns nil when the step cannot be built.
    static func build(_ options: OptionReader, in context: BuildContext) -> Self?

    /// Reads the step's whole input (a `for-each` file, a device file) before the run sends anything:
    /// counts its records and finds the malformed ones. The engine checks every step first, so a bad row
    /// in a later step's file stops the run before an earlier step sends. Nil for a step without such input.
    func checkInput(in context: StepContext) async throws -> InputCheck?

    /// The hubs the step talks to and the right each request needs, so `pushline check` can prove them
    /// before a run. Empty for a step that sends nothing.
    var access: [HubAccess] { get }

    /// Does the step's work.
    func run(in context: StepContext) async throws -> StepResult
}

extension Step {
    /// Most steps read no input file.
    public func checkInput(in context: StepContext) async throws -> InputCheck? { nil }

    /// Most steps talk to no hub.
    public var access: [HubAccess] { [] }
}

/// A right a step needs on a hub.
public struct HubAccess: Sendable {
    /// The declared hub.
    public var hub: HubDeclaration
    /// The right its requests need.
    public var right: AccessRight
    /// What for, in a few words: "register installations", "send".
    public var purpose: String

    /// Creates an access.
    public init(hub: HubDeclaration, right: AccessRight, purpose: String) {
        self.hub = hub
        self.right = right
        self.purpose = purpose
    }
}

/// What a step reports when it finishes.
public struct StepResult: Sendable, Equatable {
    /// One line for the text report.
    public var summary: String
    /// Further lines for the text report (e.g. a rendered payload), printed indented.
    public var lines: [String]
    /// Structured detail for the JSON report.
    public var data: ReportValue
    /// A batch step's items by outcome; nil for steps that send nothing item by item.
    public var items: ItemCounts?
    /// True when a stop signal ended the step before its last item.
    public var interrupted: Bool

    /// Creates a result.
    public init(summary: String, lines: [String] = [], data: ReportValue = .object([]), items: ItemCounts? = nil,
                interrupted: Bool = false) {
        self.summary = summary
        self.lines = lines
        self.data = data
        self.items = items
        self.interrupted = interrupted
    }
}

/// A failure a step reports: a small domain message; the engine adds where it happened.
public struct StepFailure: Error, Sendable, Equatable {
    /// What went wrong.
    public var message: String
    /// How to fix it, if known.
    public var hint: String?
    /// Lines to show with the failure (e.g. the payload that failed a lint check).
    public var lines: [String]
    /// Structured detail for the JSON report.
    public var data: ReportValue

    /// Creates a failure.
    public init(_ message: String, hint: String? = nil, lines: [String] = [], data: ReportValue = .object([])) {
        self.message = message
        self.hint = hint
        self.lines = lines
        self.data = data
    }
}
