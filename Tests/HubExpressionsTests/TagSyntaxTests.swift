import HubExpressions
import Testing

@Suite("Tag syntax")
struct TagSyntaxTests {
    @Test(
        "valid tags",
        arguments: [
            "follows_RedSox", "a@b#c.d:e-f", "0", "user:alice@example.com",
            "$InstallationId:{abc-123}", "$UserId:{u=1}", "$userid:{x}", "$INSTALLATIONID:{_.:@#-=}",
            String(repeating: "x", count: 120),
        ])
    func valid(tag: String) {
        #expect(TagSyntax.problem(with: tag) == nil)
    }

    @Test(
        "invalid tags",
        arguments: [
            ("", "tag is empty"),
            ("a b", "tag 'a b' contains a space, which is not allowed"),
            ("a\tb", "tag 'a\tb' contains a tab, which is not allowed"),
            ("a=b", "tag 'a=b' contains '=', which is not allowed"),
            ("café", "tag 'café' contains 'é', which is not allowed"),
            (
                String(repeating: "x", count: 121),
                "tag 'xxxxxxxxxxxxxxxxxxxx…' is 121 characters long; NH allows at most 120"
            ),
            ("$Foo:{x}", "tag '$Foo:{x}' starts with '$' but is not a special tag"),
            ("$UserId:{x", "tag '$UserId:{x' is missing its closing '}'"),
            ("$UserId:{x}y", "tag '$UserId:{x}y' continues after its closing '}'"),
            ("$UserId:{a/b}", "tag '$UserId:{a/b}' contains '/', which is not allowed"),
        ])
    func invalid(tag: String, message: String) {
        #expect(TagSyntax.problem(with: tag) == message)
    }

    @Test("max length is 120")
    func maxLength() {
        #expect(TagSyntax.maxLength == 120)
    }

    @Test("a device's tag list: too many tags (no position), then each bad tag at its position")
    func listProblems() {
        #expect(TagSyntax.problems(in: ["a", "b"], limit: 2).isEmpty)
        let found = TagSyntax.problems(in: ["ok", "bad tag", "fine", "x!"], limit: 3)
        #expect(found.map(\.position) == [nil, 1, 3])
        #expect(found[0].message == "4 tags; NH allows at most 3 per device")
        #expect(found[1].message.hasPrefix("invalid tag: "))
    }
}
