/// A value in a `when:` expression.
package enum ConditionValue: Sendable, Equatable {
    /// A whole number.
    case integer(Int)
    /// Text.
    case string(String)
    /// `true` or `false`.
    case boolean(Bool)
    /// A list output (compared with `[]` for emptiness); `total` counts every item.
    case list([String], total: Int)

    /// The type, as checked when the pipeline is loaded.
    package var type: ConditionType {
        switch self {
        case .integer: .integer
        case .string: .string
        case .boolean: .boolean
        case .list: .list
        }
    }

    var isTrue: Bool { if case .boolean(true) = self { true } else { false } }
}
