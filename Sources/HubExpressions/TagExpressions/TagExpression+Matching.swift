extension TagExpression {
    /// Whether a device with `deviceTags` is targeted. Comparison is exact and case-sensitive so that
    /// casing mistakes show up in tests (NH's own case handling is unconfirmed, docs §6).
    public func matches(_ deviceTags: Set<String>) -> Bool {
        root.matches(deviceTags)
    }
}

extension TagExpression.Node {
    /// Evaluates the node; `and`/`or` short-circuit like the operators they stand for.
    func matches(_ deviceTags: Set<String>) -> Bool {
        switch self {
        case .tag(let name): return deviceTags.contains(name)
        case .not(let operand): return !operand.matches(deviceTags)
        case .and(let operands): return operands.allSatisfy { $0.matches(deviceTags) }
        case .or(let operands): return operands.contains { $0.matches(deviceTags) }
        }
    }
}
