import HubWire

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
    /// The values of the step's declared outputs, for later steps and the report.
    public var outputs: StepOutputs = [:]
    /// True when the step's notifications were accepted but their telemetry shows no device was reached: the run
    /// ends `undelivered` (exit 4) instead of succeeded. Any step that reads delivery outcomes may set it; the engine
    /// keeps it with the step's record, so a resumed run ends the same way.
    public var reachedNoDevice = false

    /// Creates a result.
    public init(
        summary: String, lines: [String] = [], data: ReportValue = .object([]), items: ItemCounts? = nil,
        interrupted: Bool = false
    ) {
        self.summary = summary
        self.lines = lines
        self.data = data
        self.items = items
        self.interrupted = interrupted
    }
}
