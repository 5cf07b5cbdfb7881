extension TagExpressionParser {
    /// An operand was required (after an operator, at the start, or inside `(`) but something else came.
    func missingOperand(after op: TagToken?, found: TagToken?) -> TagExpressionError {
        let expectation = op?.kind == .not ? "a tag or '('" : "a tag, '!' or '('"
        guard let found else {
            // Input ended: point at the dangling operator, which is what needs fixing.
            guard let op else {
                return TagExpressionError(
                    kind: .syntax, message: "expression is empty", column: 1,
                    hint: "write at least one tag, e.g. follows_RedSox")
            }
            let hint =
                op.kind == .openParen
                ? "write a tag inside the parentheses" : "remove '\(op.spelling)' or add a tag after it"
            return TagExpressionError(
                kind: .syntax, message: "expected \(expectation) after '\(op.spelling)'",
                column: op.column, hint: hint)
        }
        let message: String
        if let op {
            message = "expected \(expectation) after '\(op.spelling)' but found '\(found.spelling)'"
        } else {
            message = "expected \(expectation) but found '\(found.spelling)'"
        }
        let hint: String? =
            switch (op?.kind, found.kind) {
            case (.openParen, .closeParen): "parentheses must contain an expression"
            case (_, .and), (_, .or): "an operator needs a tag on each side"
            default: nil
            }
        return TagExpressionError(kind: .syntax, message: message, column: found.column, hint: hint)
    }

    /// A complete operand was followed by something that cannot continue the expression.
    func unexpected(_ token: TagToken) -> TagExpressionError {
        switch token.kind {
        case .closeParen:
            return TagExpressionError(
                kind: .syntax, message: "')' has no matching '('", column: token.column,
                hint: "remove it or add '(' before the group")
        case .tag(let name):
            var hint = "tags cannot contain spaces; join tags with '&&' or '||'"
            if position > 0, case .tag(let previous) = tokens[position - 1].kind {
                hint = "tags cannot contain spaces; write '\(previous) && \(name)' or '\(previous) || \(name)'"
            }
            return TagExpressionError(
                kind: .syntax,
                message: "expected '&&' or '||' before tag '\(name)'",
                column: token.column, hint: hint)
        case .not:
            return TagExpressionError(
                kind: .syntax, message: "expected '&&' or '||' before '!'",
                column: token.column, hint: "'!' negates what follows it, e.g. 'a && !b'")
        case .openParen:
            return TagExpressionError(
                kind: .syntax, message: "expected '&&' or '||' before '('",
                column: token.column, hint: nil)
        case .and, .or:
            // Operators always continue an expression, so the parser never stops in front of one.
            return TagExpressionError(
                kind: .syntax, message: "unexpected '\(token.spelling)'",
                column: token.column, hint: nil)
        }
    }
}
