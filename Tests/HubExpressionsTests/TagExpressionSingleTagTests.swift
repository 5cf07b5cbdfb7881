import Testing

@testable import HubExpressions

/// A single tag takes a short path through parsing (`TagExpression+SingleTag`); it must give exactly what the full
/// lexer and parser give, and send everything else, invalid tags included, to them.
@Suite struct TagExpressionSingleTagTests {
    /// The full parse's outcome as comparable text: the tree and columns, or the error.
    private func full(_ source: String) -> String {
        do throws(TagExpressionError) {
            let parsed = try TagExpression(parsingFully: source)
            return "\(parsed.root) \(parsed.tagColumns)"
        } catch {
            return "error \(error.kind) \(error.column) \(error.message)"
        }
    }

    private func fast(_ source: String) -> String {
        do throws(TagExpressionError) {
            let parsed = try TagExpression(parsing: source)
            return "\(parsed.root) \(parsed.tagColumns)"
        } catch {
            return "error \(error.kind) \(error.column) \(error.message)"
        }
    }

    @Test(
        "single tags, valid and not, parse as the full parser parses them",
        arguments: [
            "follows_RedSox", "$UserId:{u0203}", "$userid:{a=b}", "$InstallationId:{seed-1}",
            "$INSTALLATIONID:{X.y@z#1:2-3}",
            "$UserId:{}", "$UserId:{u", "$UserId:{u}x", "$UserId:{u v}", "$User:{u}", "$", "a b", "a&&b", "a!", "(a)",
            "",
            "é", "tag,comma", String(repeating: "a", count: 120), String(repeating: "a", count: 121),
            "$UserId:{" + String(repeating: "u", count: 110) + "}",
            "$UserId:{" + String(repeating: "u", count: 111) + "}",
            "$UserId:{{u}}", "$UserId:{u}}", "location_Boston:2026",
        ])
    func sameAsTheFullParse(_ source: String) {
        #expect(fast(source) == full(source))
    }

    @Test("random strings of tag characters and the characters that end or spoil a tag")
    func randomStrings() {
        let alphabet = Array("aZ09_@#.:-${}=()!&| \té")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            var source = Bool.random(using: &generator) ? "$UserId:{" : ""
            for _ in 0..<Int.random(in: 0...14, using: &generator) {
                source.append(alphabet.randomElement(using: &generator)!)
            }
            if Bool.random(using: &generator) { source += "}" }
            #expect(fast(source) == full(source), "\(source.debugDescription)")
        }
    }
}
