/// The types a `when:` operand has.
package enum ConditionType: String, Sendable, Equatable {
    /// A whole number.
    case integer
    /// Text.
    case string
    /// `true` or `false`.
    case boolean
    /// A list of text.
    case list

    /// "an integer", "a string", ….
    package var withArticle: String { self == .integer ? "an integer" : "a \(rawValue)" }
}
