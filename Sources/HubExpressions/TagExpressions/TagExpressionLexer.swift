/// Splits a tag expression into tokens and validates each tag on the way.
///
/// Works on `Character`s so that columns match what an editor shows, even after non-ASCII text.
enum TagExpressionLexer {
    static func tokenize(_ chars: [Character]) throws(TagExpressionError) -> [TagToken] {
        var tokens: [TagToken] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let column = i + 1
            if c.isWhitespace {
                i += 1
                continue
            }
            switch c {
            case "(":
                tokens.append(TagToken(kind: .openParen, column: column))
                i += 1
            case ")":
                tokens.append(TagToken(kind: .closeParen, column: column))
                i += 1
            case "!":
                tokens.append(TagToken(kind: .not, column: column))
                i += 1
            case "&", "|":
                guard i + 1 < chars.count, chars[i + 1] == c else {
                    let word = c == "&" ? "AND" : "OR"
                    throw TagExpressionError(
                        kind: .syntax, message: "single '\(c)' is not an operator",
                        column: column, hint: "write '\(c)\(c)' for \(word)")
                }
                tokens.append(TagToken(kind: c == "&" ? .and : .or, column: column))
                i += 2
            default:
                let end = tagEnd(chars, from: i)
                let tag = Array(chars[i..<end])
                if let problem = TagSyntax.diagnose(tag) {
                    throw TagExpressionError(
                        kind: problem.kind, message: problem.message,
                        column: column + problem.offset, hint: problem.hint)
                }
                tokens.append(TagToken(kind: .tag(String(tag)), column: column))
                i = end
            }
        }
        return tokens
    }

    /// Characters that always end a tag outside `{…}`.
    static func isDelimiter(_ c: Character) -> Bool {
        c.isWhitespace || c == "(" || c == ")" || c == "!" || c == "&" || c == "|"
    }

    /// Finds where the tag starting at `start` ends. Inside `{…}` of a special tag everything up to
    /// the closing brace belongs to the tag, so a stray space there is reported as part of that tag.
    static func tagEnd(_ chars: [Character], from start: Int) -> Int {
        var i = start
        while i < chars.count, !isDelimiter(chars[i]) {
            if chars[i] == "{", chars[start] == "$",
                let close = chars[(i + 1)...].firstIndex(of: "}")
            {
                i = close + 1
                continue
            }
            i += 1
        }
        return i
    }
}
