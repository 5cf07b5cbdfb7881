import Foundation

/// The input check of one step as the report shows it.
package struct InputSummary: Sendable, Equatable, Encodable {
    /// The input file as reports name it.
    package var file: String
    /// Records read.
    package var records: Int
    /// Malformed records among them.
    package var bad: Int
    /// Records whose quoted CSV field spans several lines.
    package var multiLine: Int
    /// `stop` or `skip`.
    package var badRows: String

    /// The summary of `check`.
    package init(_ check: InputCheck) {
        file = check.input
        records = check.records
        bad = check.bad
        multiLine = check.multiLine
        badRows = check.policy.rawValue
    }
}
