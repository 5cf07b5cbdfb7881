import Foundation

/// What happened to one step.
public struct StepRecord: Sendable, Equatable, Encodable {
    /// How the step ended.
    public enum Status: String, Sendable, Equatable, Encodable {
        /// It did its work.
        case succeeded
        /// It ran every item, but some failed or their fate is unknown.
        case partial
        /// It threw.
        case failed
        /// An earlier step failed, so it did not run.
        case skipped
        /// A stop signal ended it (or the run stopped before it).
        case interrupted
    }

    /// 1-based position in `steps:`.
    public var index: Int
    /// The step kind.
    public var step: String
    /// The step's `id:`, when it has one.
    public var id: String?
    /// The step's `name:`, when it has one.
    public var name: String?
    /// How people see the step: its name, or its kind.
    public var title: String { name ?? step }
    /// Where the step is written, `file:line:column`.
    public var location: String
    /// How it ended.
    public var status: Status
    /// One line for people.
    public var summary: String
    /// Further lines for the text report.
    public var lines: [String]
    /// Structured detail.
    public var data: ReportValue
    /// Wall time in milliseconds.
    public var durationMs: Int
    /// The failure's hint, when it failed and had one.
    public var hint: String?
    /// A batch step's items by outcome.
    public var items: ItemCounts?
    /// What the input check found in the step's input, when it has one.
    public var input: InputSummary?
    /// The step's outputs by name, in the order the step declares them; nil when it did not run or declares none.
    public var outputs: ReportValue?

    /// Creates a record.
    public init(
        index: Int, step: String, location: String, status: Status, summary: String, lines: [String] = [],
        data: ReportValue = .object([]), durationMs: Int = 0, hint: String? = nil, items: ItemCounts? = nil
    ) {
        self.index = index
        self.step = step
        self.location = location
        self.status = status
        self.summary = summary
        self.lines = lines
        self.data = data
        self.durationMs = durationMs
        self.hint = hint
        self.items = items
    }
}
