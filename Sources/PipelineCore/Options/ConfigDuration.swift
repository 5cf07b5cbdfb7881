/// Parses durations written as `90s`, `20m`, `1h`, `1h30m`, `2d` into seconds.
public enum ConfigDuration {
    /// Seconds for `text`, or nil when it is not a duration.
    public static func seconds(_ text: String) -> Int64? {
        var total: Int64 = 0
        var digits = ""
        var sawUnit = false
        for character in text.trimmingCharacters() {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if let unit = unitSeconds(character), let value = Int64(digits) {
                let (product, overflow1) = value.multipliedReportingOverflow(by: unit)
                let (sum, overflow2) = total.addingReportingOverflow(product)
                guard !overflow1, !overflow2 else { return nil }
                total = sum
                digits = ""
                sawUnit = true
            } else {
                return nil
            }
        }
        guard digits.isEmpty, sawUnit else { return nil }
        return total
    }

    /// Seconds in one `unit`. A switch, not a dictionary literal: the literal's first use made the runtime look
    /// up Character's Hashable conformance by scanning every conformance record in the binary.
    private static func unitSeconds(_ unit: Character) -> Int64? {
        switch unit {
        case "s": return 1
        case "m": return 60
        case "h": return 3600
        case "d": return 86400
        default: return nil
        }
    }

    /// A compact spelling of a number of seconds, e.g. `1h30m`.
    public static func format(_ seconds: Int64) -> String {
        if seconds == 0 { return "0s" }
        var rest = seconds
        var text = ""
        for (unit, size) in [("d", Int64(86400)), ("h", 3600), ("m", 60), ("s", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return text
    }
}

extension String {
    /// The string without leading and trailing whitespace (no Foundation needed).
    func trimmingCharacters() -> Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return self[start..<end]
    }
}
