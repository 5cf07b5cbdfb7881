import Foundation

/// Times as reports, logs and the journal write them.
package enum Timestamp {
    /// ISO 8601 with second precision in UTC, as cron logs and JSON consumers expect.
    package static func iso8601(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .omitted))
    }
}
