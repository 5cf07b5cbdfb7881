import HubExpressions
import Testing

@Suite("Tag expressions: explanation")
struct TagExpressionExplanationTests {
    @Test(
        "plain-words lines, two spaces per level",
        arguments: [
            (
                "(follows_RedSox || follows_Cardinals) && location_Boston",
                [
                    "all of:",
                    "  any of:",
                    "    has tag follows_RedSox",
                    "    has tag follows_Cardinals",
                    "  has tag location_Boston",
                ]
            ),
            ("x", ["has tag x"]),
            ("!a", ["does not have tag a"]),
            ("$InstallationId:{abc}", ["is installation 'abc'"]),
            ("$UserId:{u1}", ["belongs to user 'u1'"]),
            (
                "$UserId:{u1} && !$InstallationId:{d=1}",
                ["all of:", "  belongs to user 'u1'", "  is not installation 'd=1'"]
            ),
            ("!$UserId:{u1}", ["does not belong to user 'u1'"]),
            ("!(a || b)", ["none of:", "  has tag a", "  has tag b"]),
            ("!(a && b)", ["not all of:", "  has tag a", "  has tag b"]),
            ("!!a", ["not:", "  does not have tag a"]),
            (
                "a || b && !(c || d)",
                [
                    "any of:",
                    "  has tag a",
                    "  all of:",
                    "    has tag b",
                    "    none of:",
                    "      has tag c",
                    "      has tag d",
                ]
            ),
        ])
    func explanation(source: String, lines: [String]) throws {
        #expect(try TagExpression(parsing: source).explanation() == lines)
    }
}
