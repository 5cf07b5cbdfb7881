import HubExpressions
import Testing

@Suite("Tag expressions: parsing")
struct TagExpressionParsingTests {
    typealias Node = TagExpression.Node

    @Test(
        "precedence and grouping",
        arguments: [
            ("a || b && c", Node.or([.tag("a"), .and([.tag("b"), .tag("c")])])),
            ("a && b || c", .or([.and([.tag("a"), .tag("b")]), .tag("c")])),
            ("!a && b", .and([.not(.tag("a")), .tag("b")])),
            ("!a || b", .or([.not(.tag("a")), .tag("b")])),
            ("(a || b) && c", .and([.or([.tag("a"), .tag("b")]), .tag("c")])),
            ("!(a||b)", .not(.or([.tag("a"), .tag("b")]))),
            ("a&&b", .and([.tag("a"), .tag("b")])),
            ("!!a", .not(.not(.tag("a")))),
            ("((a))", .tag("a")),
            ("(a && b) && c", .and([.tag("a"), .tag("b"), .tag("c")])),
            ("a || (b || c) || d", .or([.tag("a"), .tag("b"), .tag("c"), .tag("d")])),
            ("a && (b || c) && d", .and([.tag("a"), .or([.tag("b"), .tag("c")]), .tag("d")])),
            ("  follows_RedSox\t", .tag("follows_RedSox")),
            (
                "$InstallationId:{abc-1} || $UserId:{u=1}",
                .or([.tag("$InstallationId:{abc-1}"), .tag("$UserId:{u=1}")])
            ),
        ])
    func tree(source: String, expected: Node) throws {
        let expression = try TagExpression(parsing: source)
        #expect(expression.root == expected)
        #expect(expression.source == source)
    }

    @Test(
        "canonical description",
        arguments: [
            ("a||b&&c", "a || b && c"),
            ("(a||b)&&c", "(a || b) && c"),
            ("(a && b) || c", "a && b || c"),
            ("a && (b && c)", "a && b && c"),
            ("!(a && b)", "!(a && b)"),
            ("!(a)", "!a"),
            ("!!a", "!!a"),
            ("((a))", "a"),
            ("!a||(!b)", "!a || !b"),
            ("!((a) && !(b))", "!(a && !b)"),
            ("a && !(b || c) || !d && e", "a && !(b || c) || !d && e"),
            (
                "(follows_RedSox||follows_Cardinals)&&location_Boston",
                "(follows_RedSox || follows_Cardinals) && location_Boston"
            ),
            ("  $UserId:{u1}  ", "$UserId:{u1}"),
        ])
    func description(source: String, expected: String) throws {
        let expression = try TagExpression(parsing: source)
        #expect(expression.description == expected)
        // The canonical form must parse back to the same tree.
        #expect(try TagExpression(parsing: expected).root == expression.root)
    }

    @Test("tags lists every occurrence in source order")
    func tags() throws {
        #expect(try TagExpression(parsing: "a || b && !a || (c && b)").tags == ["a", "b", "a", "c", "b"])
        #expect(try TagExpression(parsing: "x").tags == ["x"])
    }

    @Test(
        "usesOnlyOr and tagLimit",
        arguments: [
            ("a", true, 20),
            ("a || b", true, 20),
            ("(a || b) || c", true, 20),
            ("a && b", false, 6),
            ("!a", false, 6),
            ("a || !b", false, 6),
            ("(a || b) && c", false, 6),
        ])
    func orOnly(source: String, orOnly: Bool, limit: Int) throws {
        let expression = try TagExpression(parsing: source)
        #expect(expression.usesOnlyOr == orOnly)
        #expect(expression.tagLimit == limit)
    }

    @Test("64 levels of nesting are accepted")
    func maximumNesting() throws {
        let parens = String(repeating: "(", count: 64) + "a" + String(repeating: ")", count: 64)
        #expect(try TagExpression(parsing: parens).root == .tag("a"))
        let nots = String(repeating: "!", count: 64) + "a"
        #expect(try TagExpression(parsing: nots).description == nots)
    }
}
