import FuzzSupport
import HubExpressions

/// Tag expressions as `send`'s `audience:`, the emulator and `pushline explain` parse them. Oracle: an expression
/// that parses prints in a canonical form that parses back to the same tree, and matching never traps.
func fuzzOne(_ bytes: [UInt8]) {
    guard let expression = try? TagExpression(parsing: String(decoding: bytes, as: UTF8.self)) else { return }
    guard let again = try? TagExpression(parsing: expression.description) else {
        fatalError("the canonical form \(expression.description.debugDescription) does not parse")
    }
    precondition(
        again.root == expression.root,
        "the canonical form \(expression.description.debugDescription) parses to another tree")
    _ = expression.explanation()
    _ = expression.limitViolation()
    _ = expression.matches(Set(expression.tags.prefix(3)))
}
