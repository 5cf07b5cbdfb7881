/// A piece of a `{… + …}` composite.
enum CompositePart: Equatable {
    case literal(String)
    case value(PropertyReference)
}

/// A whole string value recognised as an expression by its first character (docs §7.1).
enum TemplateExpression: Equatable {
    /// `$(…)`, `.(…)` or `%(…)`.
    case value(PropertyReference)
    /// `#(…)`: a bare JSON number when the value looks like one.
    case number(PropertyReference)
    /// `{e1 + e2 + …}`.
    case composite([CompositePart])

    /// Whether text with this first byte is an expression rather than a literal (`PeekExpressionType`).
    static func isExpression(startingWith first: UInt8?) -> Bool {
        switch first {
        case ASCII.dollar, ASCII.dot, ASCII.percent, ASCII.hash, ASCII.openBrace: return true
        default: return false
        }
    }
}
