import HubExpressions
import Testing

@Suite("Tag expressions: errors")
struct TagExpressionErrorTests {
    struct Case: CustomStringConvertible, Sendable {
        let source: String
        let expected: TagExpressionError
        var description: String { source.count > 40 ? String(source.prefix(40)) + "…" : source }

        init(_ source: String, _ kind: TagExpressionError.Kind, _ column: Int, _ message: String, hint: String? = nil) {
            self.source = source
            self.expected = TagExpressionError(kind: kind, message: message, column: column, hint: hint)
        }
    }

    static let emptyHint = "write at least one tag, e.g. follows_RedSox"
    static let characterHint = "tags may contain only letters, digits and _ @ # . : -"

    static let syntaxCases: [Case] = [
        Case("", .syntax, 1, "expression is empty", hint: emptyHint),
        Case("   ", .syntax, 1, "expression is empty", hint: emptyHint),
        Case("a &&", .syntax, 3, "expected a tag, '!' or '(' after '&&'", hint: "remove '&&' or add a tag after it"),
        Case("a ||   ", .syntax, 3, "expected a tag, '!' or '(' after '||'", hint: "remove '||' or add a tag after it"),
        Case(
            "a && || b", .syntax, 6, "expected a tag, '!' or '(' after '&&' but found '||'",
            hint: "an operator needs a tag on each side"),
        Case(
            "|| a", .syntax, 1, "expected a tag, '!' or '(' but found '||'",
            hint: "an operator needs a tag on each side"),
        Case("!", .syntax, 1, "expected a tag or '(' after '!'", hint: "remove '!' or add a tag after it"),
        Case("a && !)", .syntax, 7, "expected a tag or '(' after '!' but found ')'"),
        Case("(a || b", .syntax, 1, "'(' is never closed", hint: "add ')' at the end of the group"),
        Case("((a) || b", .syntax, 1, "'(' is never closed", hint: "add ')' at the end of the group"),
        Case("a || b)", .syntax, 7, "')' has no matching '('", hint: "remove it or add '(' before the group"),
        Case(")", .syntax, 1, "expected a tag, '!' or '(' but found ')'"),
        Case(
            "()", .syntax, 2, "expected a tag, '!' or '(' after '(' but found ')'",
            hint: "parentheses must contain an expression"),
        Case("(", .syntax, 1, "expected a tag, '!' or '(' after '('", hint: "write a tag inside the parentheses"),
        Case("a & b", .syntax, 3, "single '&' is not an operator", hint: "write '&&' for AND"),
        Case("a | b", .syntax, 3, "single '|' is not an operator", hint: "write '||' for OR"),
        Case("a &", .syntax, 3, "single '&' is not an operator", hint: "write '&&' for AND"),
        Case(
            "a b", .syntax, 3, "expected '&&' or '||' before tag 'b'",
            hint: "tags cannot contain spaces; write 'a && b' or 'a || b'"),
        Case(
            "(a) b", .syntax, 5, "expected '&&' or '||' before tag 'b'",
            hint: "tags cannot contain spaces; join tags with '&&' or '||'"),
        Case(
            "a !b", .syntax, 3, "expected '&&' or '||' before '!'", hint: "'!' negates what follows it, e.g. 'a && !b'"),
        Case("a (b)", .syntax, 3, "expected '&&' or '||' before '('"),
    ]

    static let tagCases: [Case] = [
        Case("a,b", .invalidTag, 2, "tag 'a,b' contains ',', which is not allowed", hint: characterHint),
        Case(
            "x || location_Zürich", .invalidTag, 16, "tag 'location_Zürich' contains 'ü', which is not allowed",
            hint: characterHint),
        Case("a&&b=c", .invalidTag, 5, "tag 'b=c' contains '=', which is not allowed", hint: characterHint),
        Case(
            "$foo", .invalidTag, 1, "tag '$foo' starts with '$' but is not a special tag",
            hint: "only $InstallationId:{id} and $UserId:{id} may start with '$'"),
        Case(
            "a && $UserId:{a b}", .invalidTag, 16, "tag '$UserId:{a b}' contains a space, which is not allowed",
            hint: "inside {…} only letters, digits and _ @ # . : - = are allowed"),
        Case(
            "$UserId:{}", .invalidTag, 10, "tag '$UserId:{}' has nothing between '{' and '}'",
            hint: "write the id inside the braces, e.g. $UserId:{alice}"),
        Case("$UserId:{x", .invalidTag, 10, "tag '$UserId:{x' is missing its closing '}'"),
        Case(
            String(repeating: "a", count: 121), .tagTooLong, 121,
            "tag 'aaaaaaaaaaaaaaaaaaaa…' is 121 characters long; NH allows at most 120", hint: "shorten the tag"),
        Case(
            "b && " + String(repeating: "c", count: 130), .tagTooLong, 126,
            "tag 'cccccccccccccccccccc…' is 130 characters long; NH allows at most 120", hint: "shorten the tag"),
    ]

    @Test("syntax errors name the column", arguments: syntaxCases)
    func syntax(_ testCase: Case) {
        #expect(throws: testCase.expected) { try TagExpression(parsing: testCase.source) }
    }

    @Test("tag errors point at the offending character", arguments: tagCases)
    func tags(_ testCase: Case) {
        #expect(throws: testCase.expected) { try TagExpression(parsing: testCase.source) }
    }

    @Test("pathological nesting fails with an error instead of overflowing the stack")
    func deepNesting() {
        let expected = TagExpressionError(
            kind: .syntax, message: "expression nests more than 64 levels of '(' and '!'",
            column: 65, hint: "simplify the expression")
        let parens = String(repeating: "(", count: 100_000) + "a" + String(repeating: ")", count: 100_000)
        #expect(throws: expected) { try TagExpression(parsing: parens) }
        let nots = String(repeating: "!", count: 100_000) + "a"
        #expect(throws: expected) { try TagExpression(parsing: nots) }
        let mixed = String(repeating: "!(", count: 40) + "a" + String(repeating: ")", count: 40)
        #expect(throws: expected) { try TagExpression(parsing: mixed) }
    }

    @Test("description includes column and hint")
    func errorDescription() {
        let error = TagExpressionError(
            kind: .syntax, message: "single '&' is not an operator", column: 3,
            hint: "write '&&' for AND")
        #expect(error.description == "column 3: single '&' is not an operator (write '&&' for AND)")
        #expect(TagExpressionError(kind: .syntax, message: "m", column: 1).description == "column 1: m")
    }
}
