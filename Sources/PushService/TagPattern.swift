import Foundation

/// A regular expression a whole tag must match (`\A(?:…)\z`, the pattern compiled alone first so it cannot
/// close the anchoring group).
public struct TagPattern: @unchecked Sendable {
    /// The pattern as written.
    public let pattern: String
    // NSRegularExpression is immutable once made and documented as safe to share between threads.
    private let expression: NSRegularExpression

    /// Nil when `pattern` is not a valid regular expression.
    public init?(_ pattern: String) {
        guard (try? NSRegularExpression(pattern: pattern)) != nil,
            let expression = try? NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z")
        else { return nil }
        self.pattern = pattern
        self.expression = expression
    }

    /// True when the whole of `tag` matches.
    public func matches(_ tag: String) -> Bool {
        expression.firstMatch(in: tag, range: NSRange(tag.startIndex..., in: tag)) != nil
    }
}
