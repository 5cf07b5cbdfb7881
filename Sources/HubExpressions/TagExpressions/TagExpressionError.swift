/// Why a tag expression was rejected, and where.
///
/// Errors are plain values so callers (and tests) can compare them whole and
/// re-anchor `column` onto a position in a YAML file.
public struct TagExpressionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The family of problem, so callers can react without parsing `message`.
    public enum Kind: Sendable, Equatable {
        /// Malformed expression: bad operator, unbalanced parentheses, missing operand.
        case syntax
        /// A tag contains a character NH does not allow.
        case invalidTag
        /// A tag is longer than ``TagSyntax/maxLength``.
        case tagTooLong
        /// The expression uses more tags than NH accepts (20 OR-only, otherwise 6).
        case tooManyTags
    }

    /// The family of problem.
    public let kind: Kind
    /// One-line description, phrased for the person who wrote the expression.
    public let message: String
    /// 1-based column of the offending character (counted in `Character`s of the source).
    public let column: Int
    /// How to fix it, when there is a useful suggestion.
    public let hint: String?

    /// Creates an error; mostly used by the parser, public so other modules can build expected values.
    public init(kind: Kind, message: String, column: Int, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.column = column
        self.hint = hint
    }

    /// `column N: message`, plus the hint in parentheses when there is one.
    public var description: String {
        if let hint { return "column \(column): \(message) (\(hint))" }
        return "column \(column): \(message)"
    }
}
