import Foundation

/// The outcome of running a pipeline, printed as text or JSON by the CLI.
public struct RunReport: Sendable, Equatable, Encodable {
    /// How the run ended.
    public enum Status: String, Sendable, Equatable, Encodable {
        /// Every step succeeded and every item was accepted.
        case succeeded
        /// Every step ran, but some items failed or their fate is unknown.
        case partial
        /// A step failed; later steps were skipped.
        case failed
        /// A stop signal ended the run; running it again resumes it.
        case interrupted
        /// The input check found malformed records (or could not read an input); nothing was sent.
        case rejected
    }

    /// The pipeline file.
    public var pipeline: String
    /// True for a dry run.
    public var dryRun: Bool
    /// When the run started (ISO 8601, UTC).
    public var startedAt: String
    /// When the run finished (ISO 8601, UTC).
    public var finishedAt: String
    /// How the run ended.
    public var status: Status
    /// One record per step, in order.
    public var steps: [StepRecord]
    /// The journal's id for this run (live runs), shown by `pushline runs`.
    public var runId: String?
    /// True when this run resumed an earlier attempt that was cut off.
    public var resumed: Bool?

    /// Creates a report.
    public init(pipeline: String, dryRun: Bool, startedAt: Date, finishedAt: Date, status: Status, steps: [StepRecord]) {
        self.pipeline = pipeline
        self.dryRun = dryRun
        self.startedAt = RunReport.timestamp(startedAt)
        self.finishedAt = RunReport.timestamp(finishedAt)
        self.status = status
        self.steps = steps
    }

    /// ISO 8601 with second precision in UTC, as cron logs and JSON consumers expect.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .omitted))
    }
}

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

/// The input check of one step as the report shows it.
public struct InputSummary: Sendable, Equatable, Encodable {
    /// The input file as reports name it.
    public var file: String
    /// Records read.
    public var records: Int
    /// Malformed records among them.
    public var bad: Int
    /// Records whose quoted CSV field spans several lines.
    public var multiLine: Int
    /// `stop` or `skip`.
    public var badRows: String

    /// The summary of `check`.
    public init(_ check: InputCheck) {
        file = check.input
        records = check.records
        bad = check.bad
        multiLine = check.multiLine
        badRows = check.policy.rawValue
    }
}
