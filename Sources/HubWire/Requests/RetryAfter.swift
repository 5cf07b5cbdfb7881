/// The `Retry-After` header of a throttled response (nh-rest-api.md §8): delay seconds or an HTTP date.
public enum RetryAfter {
    /// Seconds to wait: the number for delay-seconds (`120`; a fraction such as `1.5` is accepted too), or the
    /// time from `now` to an HTTP date (0 when the date has passed). Nil when the header is absent, empty,
    /// negative or neither form. `now` is epoch seconds.
    public static func seconds(_ header: String?, now: Double) -> Double? {
        guard let text = header?.trimmingWhitespace(), !text.isEmpty else { return nil }
        if text.allSatisfy({ $0.isASCIIDigit || $0 == "." }) {
            let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
            guard pieces.count <= 2, !pieces[0].isEmpty, pieces.allSatisfy({ !$0.isEmpty }),
                let value = Double(text), value.isFinite
            else { return nil }
            return value
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        return max(0, date - now)
    }
}
