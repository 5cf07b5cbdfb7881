import HubExpressions
import Testing

@Suite("Tag expressions: matching")
struct TagExpressionMatchingTests {
    @Test(
        "a || b && c binds && first",
        arguments: [
            ([], false), (["a"], true), (["b"], false), (["c"], false),
            (["a", "b"], true), (["a", "c"], true), (["b", "c"], true), (["a", "b", "c"], true),
        ] as [(Set<String>, Bool)])
    func precedence(tags: Set<String>, expected: Bool) throws {
        #expect(try TagExpression(parsing: "a || b && c").matches(tags) == expected)
        // The same truth table written with explicit grouping.
        #expect(try TagExpression(parsing: "a || (b && c)").matches(tags) == expected)
    }

    @Test(
        "(a || b) && !c",
        arguments: [
            ([], false), (["a"], true), (["b"], true), (["c"], false),
            (["a", "b"], true), (["a", "c"], false), (["b", "c"], false), (["a", "b", "c"], false),
        ] as [(Set<String>, Bool)])
    func groupedNegation(tags: Set<String>, expected: Bool) throws {
        #expect(try TagExpression(parsing: "(a || b) && !c").matches(tags) == expected)
    }

    @Test(
        "!a && b",
        arguments: [
            ([], false), (["a"], false), (["b"], true), (["a", "b"], false), (["b", "z"], true),
        ] as [(Set<String>, Bool)])
    func negationFirst(tags: Set<String>, expected: Bool) throws {
        #expect(try TagExpression(parsing: "!a && b").matches(tags) == expected)
    }

    @Test("matching is exact and case-sensitive")
    func caseSensitive() throws {
        let expression = try TagExpression(parsing: "follows_RedSox")
        #expect(expression.matches(["follows_RedSox"]))
        #expect(!expression.matches(["follows_redsox"]))
        #expect(!expression.matches(["follows_RedSox2"]))
    }

    @Test("special tags match as ordinary set members")
    func specialTags() throws {
        let expression = try TagExpression(parsing: "$InstallationId:{abc} || $UserId:{u1}")
        #expect(expression.matches(["$InstallationId:{abc}"]))
        #expect(expression.matches(["$UserId:{u1}", "x"]))
        #expect(!expression.matches(["abc", "u1"]))
    }
}
