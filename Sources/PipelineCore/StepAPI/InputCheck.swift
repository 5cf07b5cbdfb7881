/// What a step's whole input came to, read before the run sends anything: how many records it holds
/// and which are malformed, each named by `file:line`.
///
/// Reading is streamed (constant memory whatever the size): every record is counted, the first
/// `InputCheck.listed` problems are kept for the report, and the run itself meets the same problems
/// again row by row.
public struct InputCheck: Sendable, Equatable {
    /// Problems kept for the report; the rest are counted.
    public static let listed = 20

    /// The input as reports name it.
    public var input: String
    /// Records (rows, devices) read.
    public var records: Int
    /// Malformed records.
    public var bad: Int
    /// The first problems, each `file:line: what is wrong`.
    public var problems: [String]
    /// Records whose quoted CSV field spans several lines (legal, but worth a look when unexpected).
    public var multiLine: Int
    /// What the step does with malformed records.
    public var policy: BadRowPolicy

    /// Creates an empty check of `input`.
    public init(input: String, policy: BadRowPolicy) {
        self.input = input
        records = 0
        bad = 0
        problems = []
        multiLine = 0
        self.policy = policy
    }

    /// Counts a good record.
    public mutating func good(multiLine spans: Bool = false) {
        records += 1
        if spans { multiLine += 1 }
    }

    /// Counts a malformed record; `problem` starts with its `file:line`.
    public mutating func malformed(_ problem: String) {
        records += 1
        bad += 1
        if problems.count < Self.listed { problems.append(problem) }
    }

    /// True when the run must not start: malformed records and the policy says stop.
    public var stopsRun: Bool { bad > 0 && policy == .stop }

    /// One line for the report: `5,000 records in 'rows.csv', 1 malformed`.
    public var summary: String {
        var text = "\(ItemCounts.grouped(records)) record\(records == 1 ? "" : "s") in '\(input)'"
        if bad > 0 { text += ", \(ItemCounts.grouped(bad)) malformed" }
        if multiLine > 0 { text += ", \(ItemCounts.grouped(multiLine)) spanning several lines" }
        return text
    }

    /// The problems as report lines, with a count of those not listed.
    public var lines: [String] {
        problems
            + (bad > problems.count ? ["… and \(ItemCounts.grouped(bad - problems.count)) more malformed records"] : [])
    }
}
