/// Parses a `when:` expression as written, resolving `${param:…}` and `${env:…}` through the loader's values.
///
/// ```
/// expression := or
/// or         := and ("||" and)*
/// and        := not ("&&" not)*
/// not        := "!" not | comparison
/// comparison := operand (("==" | "!=" | "<" | "<=" | ">" | ">=") operand)?
/// operand    := "(" expression ")" | integer | "text" | 'text' | true | false | [] | success | failure | always | dry-run
///             | ${steps.ID.OUTPUT} | ${steps.ID.OUTPUT[N]} | ${param:NAME} | ${env:NAME}
/// ```
package struct ConditionParser {
    /// A token and the 1-based character where it starts.
    enum Token: Equatable {
        case value(ConditionValue, written: String)
        case output(OutputReference)
        case status(ConditionStatus)
        case comparison(ConditionComparison)
        case and, or, not, open, close
    }

    /// A `${param:NAME}`'s value, or nil when the pipeline declares no such parameter (or it has no value).
    package var parameter: (String) -> ConditionValue?
    /// A `${env:NAME}`'s value, or nil when it is not set.
    package var environment: (String) -> String?

    /// Creates a parser that reads parameters and environment variables through these.
    package init(parameter: @escaping (String) -> ConditionValue?, environment: @escaping (String) -> String?) {
        self.parameter = parameter
        self.environment = environment
    }

    /// The expression, or the first problem with where it is.
    package func parse(_ text: String) -> Result<ConditionExpression, ConditionSyntaxError> {
        do throws(ConditionSyntaxError) {
            var cursor = Cursor(tokens: try tokens(text), end: text.count + 1)
            let expression = try cursor.or()
            if let (_, column) = cursor.peek {
                throw ConditionSyntaxError("unexpected text after the expression", column: column)
            }
            return .success(expression)
        } catch {
            return .failure(error)
        }
    }

    private func tokens(_ text: String) throws(ConditionSyntaxError) -> [(Token, Int)] {
        let characters = Array(text)
        var tokens: [(Token, Int)] = []
        var position = 0
        func at(_ offset: Int) -> Character? {
            position + offset < characters.count ? characters[position + offset] : nil
        }
        while position < characters.count {
            let column = position + 1
            let character = characters[position]
            if character.isWhitespace {
                position += 1
                continue
            }
            let two = at(1).map { String([character, $0]) } ?? ""
            if let comparison = ConditionComparison(rawValue: two) {
                tokens.append((.comparison(comparison), column))
                position += 2
                continue
            }
            switch two {
            case "&&":
                tokens.append((.and, column))
                position += 2
                continue
            case "||":
                tokens.append((.or, column))
                position += 2
                continue
            case "[]":
                tokens.append((.value(.list([], total: 0), written: "[]"), column))
                position += 2
                continue
            case "${":
                guard let end = characters[position...].firstIndex(of: "}") else {
                    throw ConditionSyntaxError("unterminated reference", column: column, hint: "close it with }")
                }
                tokens.append((try reference(String(characters[(position + 2)..<end]), column: column), column))
                position = end + 1
                continue
            default: break
            }
            switch character {
            case "<", ">":
                tokens.append((.comparison(character == "<" ? .less : .greater), column))
                position += 1
            case "!":
                tokens.append((.not, column))
                position += 1
            case "(":
                tokens.append((.open, column))
                position += 1
            case ")":
                tokens.append((.close, column))
                position += 1
            case "\"", "'":
                var value = ""
                position += 1
                while let next = at(0), next != character {
                    if next == "\\", character == "\"", let escaped = at(1) {
                        value.append(escaped)
                        position += 2
                    } else {
                        value.append(next)
                        position += 1
                    }
                }
                guard at(0) == character else {
                    throw ConditionSyntaxError("unterminated text", column: column, hint: "close it with \(character)")
                }
                position += 1
                tokens.append((.value(.string(value), written: String(characters[(column - 1)..<position])), column))
            case "=":
                throw ConditionSyntaxError("'=' alone is not a comparison", column: column, hint: "write == to compare")
            case "&", "|":
                throw ConditionSyntaxError(
                    "'\(character)' alone is not an operator", column: column, hint: "write && or ||")
            default:
                var word = ""
                while let next = at(0), next.isLetter || next.isNumber || next == "-" || next == "_" || next == "." {
                    word.append(next)
                    position += 1
                }
                guard !word.isEmpty else { throw ConditionSyntaxError("unexpected '\(character)'", column: column) }
                if let number = Int(word) {
                    tokens.append((.value(.integer(number), written: word), column))
                } else if word == "true" || word == "false" {
                    tokens.append((.value(.boolean(word == "true"), written: word), column))
                } else if let status = ConditionStatus(rawValue: word) {
                    tokens.append((.status(status), column))
                } else if let symbol = Self.wordOperators[word.lowercased()] {
                    // Written as in Python or SQL: say the operator `when:` spells it with.
                    throw ConditionSyntaxError(
                        "'\(word)' is not an operator in when:; write \(symbol)", column: column,
                        hint: "the operators are && (and), || (or) and ! (not)")
                } else {
                    let names = ["true", "false"] + ConditionStatus.allCases.map(\.rawValue)
                    throw ConditionSyntaxError(
                        "unknown name '\(word)'\(Suggestion.didYouMean(word, in: names))", column: column,
                        hint:
                            "text is quoted (\"ios\"); values come from ${steps.ID.OUTPUT}, ${param:NAME} or ${env:NAME}"
                    )
                }
            }
        }
        return tokens
    }

    /// Operators written as words elsewhere, and how `when:` writes them.
    private static let wordOperators = ["or": "||", "and": "&&", "not": "!"]

    /// The token a `${…}` is: a step output, or a parameter's or an environment variable's value.
    private func reference(_ inside: String, column: Int) throws(ConditionSyntaxError) -> Token {
        if inside.hasPrefix("steps.") {
            switch OutputReference.parse(inside.dropFirst("steps.".count)) {
            case .success(let reference): return .output(reference)
            case .failure(let error):
                throw ConditionSyntaxError(
                    "'${\(inside)}' is not a step output reference: \(error.message)", column: column)
            }
        }
        if inside.hasPrefix("param:") {
            let name = String(inside.dropFirst("param:".count))
            guard let value = parameter(name) else {
                throw ConditionSyntaxError(
                    "${param:\(name)} has no value: no parameter of that name, or none given", column: column,
                    hint: "declare it under `parameters:` with a default, or give it with --param")
            }
            return .value(value, written: "${\(inside)}")
        }
        if inside.hasPrefix("env:") {
            // An unset variable reads as empty text, so `${env:X} == ""` asks whether it is set.
            return .value(.string(environment(String(inside.dropFirst("env:".count))) ?? ""), written: "${\(inside)}")
        }
        throw ConditionSyntaxError(
            "'${\(inside)}' cannot be used in when:", column: column,
            hint: "use ${steps.ID.OUTPUT}, ${param:NAME} or ${env:NAME}")
    }

    /// Recursive descent over the tokens.
    private struct Cursor {
        var tokens: [(Token, Int)]
        var index = 0
        let end: Int

        var peek: (Token, Int)? { index < tokens.count ? tokens[index] : nil }

        mutating func next() -> (Token, Int)? {
            defer { index += 1 }
            return peek
        }

        mutating func or() throws(ConditionSyntaxError) -> ConditionExpression {
            var left = try and()
            while peek?.0 == .or {
                index += 1
                left = .or(left, try and())
            }
            return left
        }

        mutating func and() throws(ConditionSyntaxError) -> ConditionExpression {
            var left = try not()
            while peek?.0 == .and {
                index += 1
                left = .and(left, try not())
            }
            return left
        }

        mutating func not() throws(ConditionSyntaxError) -> ConditionExpression {
            if peek?.0 == .not {
                index += 1
                return .not(try not())
            }
            return try comparison()
        }

        mutating func comparison() throws(ConditionSyntaxError) -> ConditionExpression {
            let left = try operand()
            guard case .comparison(let comparison)? = peek?.0 else { return left }
            index += 1
            return .compare(comparison, left, try operand())
        }

        mutating func operand() throws(ConditionSyntaxError) -> ConditionExpression {
            guard let (token, column) = next() else {
                throw ConditionSyntaxError("the expression ends where a value is expected", column: end)
            }
            switch token {
            case .value(let value, let written): return .constant(value, written: written)
            case .output(let reference): return .output(reference)
            case .status(let status): return .status(status)
            case .open:
                let inner = try or()
                guard case (.close, _)? = next() else {
                    throw ConditionSyntaxError(
                        "missing ')'", column: peek?.1 ?? end, hint: "close the '(' at character \(column)")
                }
                return inner
            default:
                throw ConditionSyntaxError("a value is expected here", column: column)
            }
        }
    }
}

/// Why a `when:` expression does not parse or does not type-check, and where.
package struct ConditionSyntaxError: Error, Sendable, Equatable {
    /// What is wrong.
    package let message: String
    /// The 1-based character in the expression as written.
    package let column: Int
    /// What to do.
    package let hint: String?

    /// Creates an error.
    package init(_ message: String, column: Int, hint: String? = nil) {
        self.message = message
        self.column = column
        self.hint = hint
    }
}
