import HubWire

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
    /// The outputs the step had produced when it failed (counts of a batch that stopped), for later steps that run
    /// on failure.
    public var outputs: StepOutputs = [:]
    /// What happened to the step's items before it failed (a batch stopped by the hub or the run store), so the report
    /// still adds up: accepted + failed + unknown + not reached = the input's records.
    public var items: ItemCounts?
    /// True when the step refused its input (malformed rows under `bad-rows: stop`) before sending anything: the run
    /// ends `rejected` (exit 2), a data error only a person can fix, not a failure worth retrying.
    package var rejectsInput = false {
        didSet { if rejectsInput, code == .failed { code = .inputRejected } }
    }
    /// What kind of failure it is, in words that stay the same (the report's `steps[].code`).
    public var code: Code = .failed

    /// Creates a failure.
    public init(_ message: String, hint: String? = nil, lines: [String] = [], data: ReportValue = .object([])) {
        self.message = message
        self.hint = hint
        self.lines = lines
        self.data = data
    }
}
