import HubWire
import Testing

/// NH's user id rules (nh-rest-api.md §3): ASCII letters and digits and `- _ @ # . : =`.
@Suite struct UserIdSyntaxTests {
    @Test("well-formed user ids pass", arguments: ["alice", "u0203", "alice@example.com", "a-b_c#d.e:f=g"])
    func valid(userId: String) {
        #expect(UserIdSyntax.problem(with: userId) == nil)
    }

    @Test("an empty id, a space, a slash or a non-ASCII letter is refused, naming the character")
    func invalid() {
        #expect(UserIdSyntax.problem(with: "") == "userId is empty")
        #expect(
            UserIdSyntax.problem(with: "al ice")?.contains(
                "which is not allowed (letters, digits and - _ @ # . : = only)") == true)
        #expect(UserIdSyntax.problem(with: "a/b") != nil)
        #expect(UserIdSyntax.problem(with: "zoë") != nil)
    }
}
