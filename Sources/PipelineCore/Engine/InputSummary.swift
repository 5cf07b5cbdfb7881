import Foundation

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
