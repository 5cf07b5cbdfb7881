import Foundation
import PipelineCore

/// What happened to one step.
package struct StepRecord: Sendable, Equatable, Encodable {
    /// How the step ended.
    package enum Status: String, Sendable, Equatable, Encodable {
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
    package var index: Int
    /// The step kind.
    package var step: String
    /// The step's `id:`, when it has one.
    package var id: String?
    /// The step's `name:`, when it has one.
    package var name: String?
    /// How people see the step: its name, or its kind.
    package var title: String { name ?? step }
    /// Where the step is written, `file:line:column`.
    package var location: String
    /// How it ended.
    package var status: Status
    /// One line for people.
    package var summary: String
    /// Further lines for the text report.
    package var lines: [String]
    /// Structured detail.
    package var data: ReportValue
    /// Wall time in milliseconds.
    package var durationMs: Int
    /// The failure's hint, when it failed and had one.
    package var hint: String?
    /// The failure's code (`StepFailure.Code`), when it failed.
    package var code: String?
    /// A batch step's items by outcome.
    package var items: ItemCounts?
    /// What the input check found in the step's input, when it has one.
    package var input: InputSummary?
    /// The step's outputs by name, in the order the step declares them; nil when it did not run or declares none.
    package var outputs: ReportValue?

    /// Creates a record.
    package init(
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
