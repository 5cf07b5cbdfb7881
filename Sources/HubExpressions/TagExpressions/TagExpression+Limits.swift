extension TagExpression {
    /// NH's tag limit for expressions that use only `||` (docs §6, §8).
    static let orOnlyTagLimit = 20
    /// NH's tag limit for expressions that use `&&` or `!`.
    static let mixedTagLimit = 6

    /// `true` when the expression uses no `&&` and no `!`; a single tag counts as OR-only.
    public var usesOnlyOr: Bool { root.usesOnlyOr }

    /// How many tag occurrences NH accepts for this expression: 20 when OR-only, otherwise 6.
    public var tagLimit: Int { usesOnlyOr ? Self.orOnlyTagLimit : Self.mixedTagLimit }

    /// `nil` when the expression is within NH's limits; otherwise an error whose column points at
    /// the first tag past the limit (the tag to remove or move to another send).
    public func limitViolation() -> TagExpressionError? {
        let count = tagColumns.count
        guard count > tagLimit else { return nil }
        let message: String
        let hint: String
        if usesOnlyOr {
            message = "expression has \(count) tags; NH allows at most \(tagLimit) when it uses only ||"
            hint = "split the audience across several sends, or give these devices a shared tag"
        } else {
            message = "expression has \(count) tags; NH allows at most \(tagLimit) when it uses && or !"
            hint =
                "reduce the tags to \(tagLimit), e.g. by giving the devices a shared tag, or use only || (up to \(Self.orOnlyTagLimit) tags)"
        }
        return TagExpressionError(kind: .tooManyTags, message: message, column: tagColumns[tagLimit], hint: hint)
    }
}

extension TagExpression.Node {
    var usesOnlyOr: Bool {
        switch self {
        case .tag: return true
        case .not, .and: return false
        case .or(let operands): return operands.allSatisfy(\.usesOnlyOr)
        }
    }
}
