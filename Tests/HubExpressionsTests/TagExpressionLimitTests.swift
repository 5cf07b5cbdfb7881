import HubExpressions
import Testing

@Suite("Tag expressions: NH limits")
struct TagExpressionLimitTests {
    /// `t01 <op> t02 <op> …`: every tag is 3 characters, so tag k starts at 1 + (k-1)*(3 + op.count + 2).
    static func chain(_ count: Int, _ op: String) -> String {
        (1...count).map { $0 < 10 ? "t0\($0)" : "t\($0)" }.joined(separator: " \(op) ")
    }

    @Test("20 tags joined by || are allowed")
    func twentyOrTags() throws {
        let expression = try TagExpression(parsing: Self.chain(20, "||"))
        #expect(expression.tags.count == 20)
        #expect(expression.limitViolation() == nil)
    }

    @Test("21 tags joined by || exceed the limit at the 21st tag")
    func twentyOneOrTags() throws {
        let expression = try TagExpression(parsing: Self.chain(21, "||"))
        #expect(
            expression.limitViolation()
                == TagExpressionError(
                    kind: .tooManyTags,
                    message: "expression has 21 tags; NH allows at most 20 when it uses only ||",
                    column: 141,
                    hint: "split the audience across several sends, or give these devices a shared tag"))
    }

    static let mixedHint =
        "reduce the tags to 6, e.g. by giving the devices a shared tag, or use only || (up to 20 tags)"

    @Test("6 tags with && are allowed, 7 are not")
    func mixedLimit() throws {
        #expect(try TagExpression(parsing: Self.chain(6, "&&")).limitViolation() == nil)
        let seven = try TagExpression(parsing: Self.chain(7, "&&"))
        #expect(
            seven.limitViolation()
                == TagExpressionError(
                    kind: .tooManyTags,
                    message: "expression has 7 tags; NH allows at most 6 when it uses && or !",
                    column: 43, hint: Self.mixedHint))
    }

    @Test(
        "a single ! makes the 6-tag limit apply",
        arguments: [
            ("!a || b || c || d || e || f || g", 32),
            ("a || b || c || d || e || f || !g", 32),
            ("(a || b || c) && (d || e || f || g)", 34),
        ])
    func negationLowersLimit(source: String, column: Int) throws {
        let expression = try TagExpression(parsing: source)
        #expect(expression.tagLimit == 6)
        #expect(
            expression.limitViolation()
                == TagExpressionError(
                    kind: .tooManyTags, message: "expression has 7 tags; NH allows at most 6 when it uses && or !",
                    column: column, hint: Self.mixedHint))
    }

    @Test("repeated tags count once per occurrence")
    func duplicatesCount() throws {
        let expression = try TagExpression(parsing: "a && a && a && a && a && a && a")
        #expect(expression.limitViolation()?.kind == .tooManyTags)
        #expect(expression.limitViolation()?.column == 31)
    }
}
