import Foundation
import PipelineCore

/// How reports group items that were not accepted: by what went wrong, not by row.
///
/// Reasons about an earlier send name the item it duplicates and when (`already sent by run X
/// (rows.csv:41 at 2026-11-23T03:00:12Z)`); those group by their text before ` (`, so one run's
/// duplicates are one group. The run journal groups with the same rule (`sqlExpression`).
package enum FailureReason {
    /// Prefixes of reasons whose parenthesised detail differs item by item.
    package static let detailedPrefixes = ["already sent by ", "left of unknown fate by run "]

    /// The part of `reason` that items of one group share.
    package static func group(_ reason: String) -> String {
        guard detailedPrefixes.contains(where: reason.hasPrefix), let open = reason.range(of: " (") else {
            return reason
        }
        return String(reason[..<open.lowerBound])
    }

    /// `group` in SQL over the column `column`; `position` is the dialect's find-a-substring function, called
    /// as `position(text, part)` (SQLite's `instr`, PostgreSQL's `strpos`).
    package static func sqlExpression(_ column: String, position: String = "instr") -> String {
        let prefixed = detailedPrefixes.map { "substr(\(column), 1, \($0.utf8.count)) = '\($0)'" }.joined(
            separator: " OR ")
        return "CASE WHEN (\(prefixed)) AND \(position)(\(column), ' (') > 0 "
            + "THEN substr(\(column), 1, \(position)(\(column), ' (') - 1) ELSE \(column) END"
    }
}
