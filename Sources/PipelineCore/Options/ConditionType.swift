/// The types a `when:` operand has.
public enum ConditionType: String, Sendable, Equatable {
    /// A whole number.
    case integer
    /// Text.
    case string
    /// `true` or `false`.
    case boolean
    /// A list of text.
    case list

    /// "an integer", "a string", ….
    public var withArticle: String { self == .integer ? "an integer" : "a \(rawValue)" }
}
