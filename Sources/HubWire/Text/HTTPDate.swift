import Foundation

/// HTTP dates (RFC 9110 §5.6.7) for `Retry-After` and `Date`, parsed by hand so the result never depends on a
/// locale or a platform date parser.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let shortDays: Set<String> = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays: Set<String> = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
        "sunday",
    ]

    /// Epoch seconds for the three forms a recipient must accept: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`),
    /// RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`; two-digit years 70–99 are 19xx, others 20xx) and asctime
    /// (`Sun Nov  6 08:49:37 1994`). Names compare case-insensitively; the weekday is checked for being a day
    /// name, not for matching the date. Nil for anything else.
    public static func parse(_ text: String) -> Double? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
        switch tokens.count {
        case 6:  // IMF-fixdate
            guard tokens[0].hasSuffix(","), shortDays.contains(String(tokens[0].dropLast())), isGMT(tokens[5]),
                tokens[1].count == 2, let day = Int(tokens[1]), let year = fourDigitYear(tokens[3])
            else { return nil }
            return epoch(year: year, month: tokens[2], day: day, time: tokens[4])
        case 4:  // RFC 850
            let date = tokens[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard tokens[0].hasSuffix(","), longDays.contains(String(tokens[0].dropLast())), isGMT(tokens[3]),
                date.count == 3, date[0].count == 2, let day = Int(date[0]), date[2].count == 2,
                date[2].allSatisfy(\.isASCIIDigit), let shortYear = Int(date[2])
            else { return nil }
            return epoch(
                year: shortYear >= 70 ? 1900 + shortYear : 2000 + shortYear, month: date[1], day: day,
                time: tokens[2])
        case 5:  // asctime
            guard shortDays.contains(tokens[0]), (1...2).contains(tokens[2].count), let day = Int(tokens[2]),
                let year = fourDigitYear(tokens[4])
            else { return nil }
            return epoch(year: year, month: tokens[1], day: day, time: tokens[3])
        default:
            return nil
        }
    }

    /// Formats epoch seconds as IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT` (fractions dropped).
    public static func format(_ epochSeconds: Double) -> String {
        let total = Int(epochSeconds.rounded(.down))
        let days = total >= 0 ? total / 86_400 : -((-total + 86_399) / 86_400)
        let secondOfDay = total - days * 86_400
        let (year, month, day) = ScheduleTime.civilFromDays(days)
        // 1970-01-01 was a Thursday.
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7]
        return "\(weekday), \(pad(day)) \(months[month - 1].capitalized) \(year) \(pad(secondOfDay / 3600)):"
            + "\(pad(secondOfDay / 60 % 60)):\(pad(secondOfDay % 60)) GMT"
    }

    private static func isGMT(_ token: String) -> Bool {
        token == "gmt" || token == "utc"
    }

    private static func fourDigitYear(_ token: String) -> Int? {
        guard token.count == 4, token.allSatisfy(\.isASCIIDigit), let year = Int(token), year >= 1 else { return nil }
        return year
    }

    private static func epoch(year: Int, month monthName: String, day: Int, time: String) -> Double? {
        guard let monthIndex = months.firstIndex(of: monthName) else { return nil }
        let month = monthIndex + 1
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...ScheduleTime.daysInMonth(month, year: year)).contains(day), parts.count == 3,
            parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), let second = Int(parts[2]),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let days = ScheduleTime.daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second)
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
