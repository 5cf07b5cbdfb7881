/// The `ServiceBusNotification-ScheduleTime` header value (nh-rest-api.md §5.4), parsed and written by hand so
/// the result never depends on a locale or on platform date parsers.
public enum ScheduleTime {
    /// Seconds from 0001-01-01T00:00:00Z to the Unix epoch.
    private static let earliest: Double = -62_135_596_800
    /// 9999-12-31T23:59:59Z as Unix seconds.
    private static let latest: Double = 253_402_300_799

    /// Epoch seconds for `yyyy-MM-ddTHH:mm:ss` (zone-less means UTC, as .NET, Java and Go send it), optionally
    /// with a fraction (`.123`, any number of digits) and `Z` or a `+hh:mm`/`-hh:mm` offset (JS sends
    /// `toISOString()`). Surrounding whitespace is ignored. Nil for anything else, including impossible dates
    /// such as month 13 or February 30.
    public static func parse(_ text: String) -> Double? {
        var reader = DigitReader(Array(text.trimmingWhitespace().utf8))
        guard let year = reader.number(digits: 4), year >= 1, reader.skip("-"),
            let month = reader.number(digits: 2), (1...12).contains(month), reader.skip("-"),
            let day = reader.number(digits: 2), (1...daysInMonth(month, year: year)).contains(day),
            reader.skip("T") || reader.skip("t"),
            let hour = reader.number(digits: 2), hour <= 23, reader.skip(":"),
            let minute = reader.number(digits: 2), minute <= 59, reader.skip(":"),
            let second = reader.number(digits: 2), second <= 59
        else { return nil }
        var fraction = 0.0
        if reader.skip(".") {
            guard let digits = reader.digitRun(), let value = Double("0." + digits) else { return nil }
            fraction = value
        }
        var offset = 0
        if reader.skip("Z") || reader.skip("z") {
            offset = 0
        } else if let sign = reader.sign() {
            guard let hours = reader.number(digits: 2), hours <= 23 else { return nil }
            _ = reader.skip(":")
            guard let minutes = reader.number(digits: 2), minutes <= 59 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard reader.isAtEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Double(seconds) + fraction
    }

    /// `yyyy-MM-ddTHH:mm:ss` in UTC (the .NET `"s"` format), fractions dropped. Values before year 1 or after
    /// year 9999, and NaN, are clamped to that range.
    public static func format(_ epochSeconds: Double) -> String {
        let clamped = epochSeconds.isNaN ? earliest : min(max(epochSeconds, earliest), latest)
        let total = Int(clamped.rounded(.down))
        let days = total >= 0 ? total / 86_400 : -((-total + 86_399) / 86_400)
        let secondOfDay = total - days * 86_400
        let (year, month, day) = civilFromDays(days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
    }

    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysFromCivil`.
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// Reads fixed-width ASCII numbers and punctuation from the front of a byte string.
private struct DigitReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index == bytes.count }

    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<(index + digits)] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += digits
        return value
    }

    /// One or more digits as text.
    mutating func digitRun() -> String? {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// +1 for `+`, -1 for `-`, nil otherwise.
    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
