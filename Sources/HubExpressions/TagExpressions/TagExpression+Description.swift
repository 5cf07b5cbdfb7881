extension TagExpression {
    /// The expression re-printed canonically: `" && "` / `" || "` between operands and only the
    /// parentheses that precedence requires, so equal trees always print the same.
    public var description: String { root.canonical }
}

extension TagExpression.Node {
    /// Binding strength, higher binds tighter: `||` < `&&` < `!` < tag.
    private var precedence: Int {
        switch self {
        case .or: return 1
        case .and: return 2
        case .not: return 3
        case .tag: return 4
        }
    }

    var canonical: String {
        switch self {
        case .tag(let name): return name
        case .not(let operand): return "!" + operand.printed(needing: 3)
        case .and(let operands): return operands.map { $0.printed(needing: 2) }.joined(separator: " && ")
        case .or(let operands): return operands.map { $0.printed(needing: 1) }.joined(separator: " || ")
        }
    }

    /// Parenthesises the node when it binds more loosely than its position needs. A hand-built
    /// one-operand `and`/`or` prints as its operand, so it never needs parentheses itself.
    private func printed(needing minimum: Int) -> String {
        switch self {
        case .and(let operands) where operands.count == 1, .or(let operands) where operands.count == 1:
            return operands[0].printed(needing: minimum)
        default:
            return precedence < minimum ? "(" + canonical + ")" : canonical
        }
    }
}
