/// Recursive-descent parser for `!` > `&&` > `||` with parentheses.
///
/// Recursion depth is bounded by `maxDepth` so hostile input (100k `(`) fails with an error
/// instead of overflowing the stack.
struct TagExpressionParser {
    /// Deepest nesting of `(` and `!` accepted; real audiences never come close.
    static let maxDepth = 64

    let tokens: [TagToken]
    private(set) var position = 0
    private var depth = 0
    /// Columns of tag occurrences, in source order, so limit errors can point at a tag.
    private(set) var tagColumns: [Int] = []

    init(tokens: [TagToken]) {
        self.tokens = tokens
    }

    mutating func parse() throws(TagExpressionError) -> TagExpression.Node {
        guard !tokens.isEmpty else {
            throw TagExpressionError(
                kind: .syntax, message: "expression is empty", column: 1,
                hint: "write at least one tag, e.g. follows_RedSox")
        }
        let node = try parseOr(after: nil)
        if let extra = peek {
            throw unexpected(extra)
        }
        return node
    }

    private var peek: TagToken? { position < tokens.count ? tokens[position] : nil }

    private mutating func parseOr(after op: TagToken?) throws(TagExpressionError) -> TagExpression.Node {
        var operands = [try parseAnd(after: op)]
        while let token = peek, token.kind == .or {
            position += 1
            operands.append(try parseAnd(after: token))
        }
        return operands.count == 1 ? operands[0] : .or(flatten(operands, or: true))
    }

    private mutating func parseAnd(after op: TagToken?) throws(TagExpressionError) -> TagExpression.Node {
        var operands = [try parseUnary(after: op)]
        while let token = peek, token.kind == .and {
            position += 1
            operands.append(try parseUnary(after: token))
        }
        return operands.count == 1 ? operands[0] : .and(flatten(operands, or: false))
    }

    private mutating func parseUnary(after op: TagToken?) throws(TagExpressionError) -> TagExpression.Node {
        guard let token = peek else { throw missingOperand(after: op, found: nil) }
        switch token.kind {
        case .tag(let name):
            position += 1
            tagColumns.append(token.column)
            return .tag(name)
        case .not:
            try enter(token)
            position += 1
            let operand = try parseUnary(after: token)
            depth -= 1
            return .not(operand)
        case .openParen:
            try enter(token)
            position += 1
            let inner = try parseOr(after: token)
            guard let close = peek, close.kind == .closeParen else {
                if let other = peek { throw unexpected(other) }
                throw TagExpressionError(
                    kind: .syntax, message: "'(' is never closed", column: token.column,
                    hint: "add ')' at the end of the group")
            }
            position += 1
            depth -= 1
            return inner
        case .closeParen, .and, .or:
            throw missingOperand(after: op, found: token)
        }
    }

    private mutating func enter(_ token: TagToken) throws(TagExpressionError) {
        depth += 1
        if depth > Self.maxDepth {
            throw TagExpressionError(
                kind: .syntax,
                message: "expression nests more than \(Self.maxDepth) levels of '(' and '!'",
                column: token.column, hint: "simplify the expression")
        }
    }

    /// `(a && b) && c` is the same as `a && b && c`; keeping one n-ary node makes the tree canonical.
    private func flatten(_ nodes: [TagExpression.Node], or: Bool) -> [TagExpression.Node] {
        nodes.flatMap { node -> [TagExpression.Node] in
            switch node {
            case .or(let inner) where or: return inner
            case .and(let inner) where !or: return inner
            default: return [node]
            }
        }
    }
}
