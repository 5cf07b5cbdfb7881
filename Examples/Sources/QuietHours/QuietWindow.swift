/// Quiet hours as minutes of the day: from `from` up to (not including) `until`, across midnight when `until` comes
/// first. An empty window (`from == until`) is never quiet.
public struct QuietWindow: Sendable, Equatable {
    /// The first quiet minute of the day (0 to 1439).
    public let from: Int
    /// The first minute after the quiet hours.
    public let until: Int

    /// A window from `from` to `until`, both minutes of the day.
    public init(from: Int, until: Int) {
        self.from = from
        self.until = until
    }

    /// Minutes from `minute` (of the day) until the window ends; 0 outside it.
    public func minutesLeft(at minute: Int) -> Int {
        let day = 24 * 60
        let length = (until - from + day) % day
        let into = (minute - from + day) % day
        return into < length ? length - into : 0
    }

    /// The minute of the day `HH:MM` names; nil for anything else.
    public static func minute(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }
}
