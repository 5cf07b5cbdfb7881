/// Parses one expression from decoded string text; error offsets index that text.
struct TemplateExpressionParser {
    /// NH's limit on property-name length (docs §7.2).
    static let maxNameLength = 120

    let text: [UInt8]
    var index = 0

    /// Parses `text`, whose first byte classified it as an expression.
    static func parse(_ text: [UInt8]) throws(ScanError) -> TemplateExpression {
        var parser = TemplateExpressionParser(text: text)
        let expression = try parser.parseWhole()
        return expression
    }

    var peek: UInt8? { index < text.count ? text[index] : nil }

    mutating func skipSpaces() {
        while index < text.count, ASCII.isWhitespace(text[index]) { index += 1 }
    }

    func found() -> String { ASCII.describeCharacter(at: index, in: text) }

    private mutating func parseWhole() throws(ScanError) -> TemplateExpression {
        let expression: TemplateExpression
        if text[0] == ASCII.openBrace {
            expression = .composite(try parseComposite())
        } else {
            let isNumber = text[0] == ASCII.hash
            let reference = try parseToken(inComposite: false)
            expression = isNumber ? .number(reference) : .value(reference)
        }
        if index < text.count {
            let what = text[0] == ASCII.openBrace ? "'}'" : "')'"
            throw ScanError(
                "unexpected \(found()) after the closing \(what)", at: index,
                hint: "an expression must be the whole value; to add text use a composite like {$(name) + ' text'}")
        }
        return expression
    }

    private mutating func parseComposite() throws(ScanError) -> [CompositePart] {
        var parts: [CompositePart] = []
        index += 1
        while true {
            skipSpaces()
            guard let b = peek else { throw unterminatedComposite() }
            switch b {
            case ASCII.apostrophe, ASCII.quote:
                parts.append(.literal(try parseLiteral()))
            case ASCII.dollar, ASCII.dot, ASCII.percent, ASCII.hash:
                parts.append(.value(try parseToken(inComposite: true)))
            case ASCII.closeBrace where parts.isEmpty:
                throw ScanError(
                    "empty composite expression", at: index,
                    hint: "write values joined by '+', e.g. {$(first) + ' ' + $(last)}")
            default:
                let after = parts.isEmpty ? "after '{'" : "after '+'"
                throw ScanError(
                    "expected $(…), .(…), %(…) or a quoted literal \(after) but found \(found())",
                    at: index, hint: "text inside {…} must be quoted, e.g. 'Hi, '")
            }
            skipSpaces()
            guard let next = peek else { throw unterminatedComposite() }
            if next == ASCII.closeBrace {
                index += 1
                return parts
            }
            guard next == ASCII.plus else {
                throw ScanError(
                    "expected '+' or '}' but found \(found())", at: index,
                    hint: "join the parts of a composite with '+'")
            }
            index += 1
        }
    }

    private func unterminatedComposite() -> ScanError {
        ScanError("unterminated composite expression: missing '}'", at: index)
    }

    /// `'text'` or `"text"`; the quote character is escaped by doubling it.
    private mutating func parseLiteral() throws(ScanError) -> String {
        let quote = text[index]
        let open = index
        index += 1
        var bytes: [UInt8] = []
        while index < text.count {
            let b = text[index]
            index += 1
            if b != quote {
                bytes.append(b)
                continue
            }
            guard peek == quote else { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(quote)
            index += 1
        }
        let q = quote == ASCII.quote ? "\"" : "'"
        throw ScanError(
            "unterminated literal: missing closing \(q)", at: open,
            hint: "to put \(q) inside the literal, double it: \(q)\(q)")
    }
}
