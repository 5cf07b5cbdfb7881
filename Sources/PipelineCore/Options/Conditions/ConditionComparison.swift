/// `==`, `!=`, `<`, `<=`, `>`, `>=`.
package enum ConditionComparison: String, Sendable, Equatable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    /// True when `left` and `right` (of types the load-time check let through) compare this way.
    func holds(_ left: ConditionValue, _ right: ConditionValue) -> Bool {
        switch (self, left, right) {
        case (.equal, .list(_, let total), .list(_, let other)): total == other
        case (.notEqual, .list(_, let total), .list(_, let other)): total != other
        case (.equal, _, _): left == right
        case (.notEqual, _, _): left != right
        case (_, .integer(let a), .integer(let b)):
            switch self {
            case .less: a < b
            case .lessOrEqual: a <= b
            case .greater: a > b
            default: a >= b
            }
        default: false
        }
    }

    /// True for `<`, `<=`, `>`, `>=`, which compare numbers only.
    package var isOrdering: Bool { self != .equal && self != .notEqual }
}
