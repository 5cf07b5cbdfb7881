extension TagExpression {
    /// The expression in plain words, one line per node, indented two spaces per level:
    ///
    /// ```
    /// all of:
    ///   any of:
    ///     has tag follows_RedSox
    ///     has tag follows_Cardinals
    ///   has tag location_Boston
    /// ```
    ///
    /// A negated tag reads as one line ("does not have tag a"), and the special tags read as
    /// "is installation 'abc'" / "belongs to user 'u1'".
    public func explanation() -> [String] {
        var lines: [String] = []
        root.explain(indent: "", into: &lines)
        return lines
    }
}

extension TagExpression.Node {
    func explain(indent: String, into lines: inout [String]) {
        let deeper = indent + "  "
        switch self {
        case .tag(let name):
            lines.append(indent + Self.describe(tag: name, negated: false))
        case .not(.tag(let name)):
            lines.append(indent + Self.describe(tag: name, negated: true))
        case .not(.or(let operands)):
            lines.append(indent + "none of:")
            for operand in operands { operand.explain(indent: deeper, into: &lines) }
        case .not(.and(let operands)):
            lines.append(indent + "not all of:")
            for operand in operands { operand.explain(indent: deeper, into: &lines) }
        case .not(let operand):
            lines.append(indent + "not:")
            operand.explain(indent: deeper, into: &lines)
        case .and(let operands):
            lines.append(indent + "all of:")
            for operand in operands { operand.explain(indent: deeper, into: &lines) }
        case .or(let operands):
            lines.append(indent + "any of:")
            for operand in operands { operand.explain(indent: deeper, into: &lines) }
        }
    }

    static func describe(tag: String, negated: Bool) -> String {
        switch TagSyntax.specialForm(of: tag) {
        case .installation(let id):
            return negated ? "is not installation '\(id)'" : "is installation '\(id)'"
        case .user(let id):
            return negated ? "does not belong to user '\(id)'" : "belongs to user '\(id)'"
        case nil:
            return negated ? "does not have tag \(tag)" : "has tag \(tag)"
        }
    }
}
