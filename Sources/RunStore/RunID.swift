import HubWire

/// Run ids: the UTC start time to the second and six random hex digits, `20261122-041200-3f9c2a`.
///
/// They sort by start time as plain strings, a person can read when a run began, and the random part
/// keeps two runs started in the same second apart (a collision is retried by the caller).
package enum RunID {
    package static func make(startedAt now: Double) -> String {
        let digits = String(UInt32.random(in: 0...0xFF_FFFF), radix: 16)
        return timestamp(now) + "-" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// `2026-11-23T03:00:12Z`: how messages and resolutions name a moment.
    package static func iso(_ now: Double) -> String {
        ScheduleTime.format(now.isNaN ? 0 : max(now, 0)) + "Z"
    }

    /// `yyyyMMdd-HHmmss` in UTC: NH's schedule-time form (`2026-11-22T04:12:00`, locale-free, clamped
    /// to years 0001–9999) without its separators. Times before 1970 are taken as 1970.
    package static func timestamp(_ now: Double) -> String {
        let text = ScheduleTime.format(now.isNaN ? 0 : max(now, 0))
        return String(text.filter { $0 != "-" && $0 != ":" }.map { $0 == "T" ? "-" : $0 })
    }
}
