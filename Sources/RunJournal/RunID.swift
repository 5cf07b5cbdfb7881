/// Run ids: the UTC start time to the second and six random hex digits, `20261122-041200-3f9c2a`.
///
/// They sort by start time as plain strings, a person can read when a run began, and the random part
/// keeps two runs started in the same second apart (a collision is retried by the caller).
enum RunID {
    static func make(startedAt now: Double) -> String {
        let suffix = hex(UInt32.random(in: 0...0xFF_FFFF), width: 6)
        return timestamp(now) + "-" + suffix
    }

    /// `yyyyMMdd-HHmmss` in UTC. Computed by hand rather than with a date formatter so it is
    /// independent of locale and calendar settings.
    static func timestamp(_ now: Double) -> String {
        // Clamp to 1970...9999 so a NaN, infinite or absurd `now` gives a well-formed id instead of trapping.
        let latest = 253_402_300_799.0
        let seconds = now.isNaN ? 0 : Int64(min(max(now, 0), latest).rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        return pad(year, 4) + pad(month, 2) + pad(day, 2) + "-"
            + pad(secondOfDay / 3600, 2) + pad(secondOfDay % 3600 / 60, 2) + pad(secondOfDay % 60, 2)
    }

    /// The proleptic Gregorian date of a day count (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
