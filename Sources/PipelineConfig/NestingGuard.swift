import PipelineCore

/// Rejects absurdly deep nesting before the YAML parser sees it.
///
/// The parser builds nodes recursively, so 100,000 nested `[` would overflow the stack and crash
/// instead of producing a diagnostic. The scan follows just enough YAML to count levels: flow
/// brackets outside quoted scalars and comments, and block levels from indentation and compact
/// `- `/`? ` indicators. It may over-count inside block scalars, which is harmless at this limit.
enum NestingGuard {
    /// The location of the first place nesting exceeds `limit`, if any.
    static func firstViolation(in text: String, limit: Int, file: String) -> SourceLocation? {
        var scanner = Scanner(limit: limit)
        for (offset, line) in text.lines.enumerated() {
            if let column = scanner.scan(Array(line)) {
                return SourceLocation(file: file, line: offset + 1, column: column)
            }
        }
        return nil
    }

    private struct Scanner {
        let limit: Int
        var flowDepth = 0
        var quote: Character?
        var indents: [Int] = []

        /// Scans one line; returns the 1-based column where the limit is exceeded.
        mutating func scan(_ characters: [Character]) -> Int? {
            if quote == nil, flowDepth == 0, let column = blockLevels(characters) { return column }
            var previous: Character?
            var index = 0
            while index < characters.count {
                let character = characters[index]
                if let open = quote {
                    if open == "\"", character == "\\" { index += 2; continue }
                    if character == open {
                        if open == "'", index + 1 < characters.count, characters[index + 1] == "'" { index += 2; continue }
                        quote = nil
                    }
                    previous = character
                    index += 1
                    continue
                }
                // Quotes and flow brackets only mean something where a value starts; `don't` is plain text.
                let atTokenStart = previous == nil || " \t[{,:-?".contains(previous!)
                // (A `where` on a multi-pattern case guards only its last pattern, hence the ifs.)
                switch character {
                case "#":
                    if previous == nil || previous == " " || previous == "\t" { return nil }
                case "'", "\"":
                    if atTokenStart { quote = character }
                case "[", "{":
                    if atTokenStart || flowDepth > 0 {
                        flowDepth += 1
                        if flowDepth > limit { return index + 1 }
                    }
                case "]", "}":
                    if flowDepth > 0 { flowDepth -= 1 }
                default:
                    break
                }
                previous = character
                index += 1
            }
            return nil
        }

        /// Block nesting: one level per deeper indentation, plus one per compact `- `/`? ` indicator.
        private mutating func blockLevels(_ characters: [Character]) -> Int? {
            let indent = characters.prefix { $0 == " " }.count
            guard indent < characters.count, characters[indent] != "#" else { return nil }
            while let last = indents.last, last >= indent { indents.removeLast() }
            indents.append(indent)
            var depth = indents.count
            var index = indent
            while index + 1 < characters.count, characters[index] == "-" || characters[index] == "?",
                characters[index + 1] == " "
            {
                depth += 1
                index += 2
                while index < characters.count, characters[index] == " " { index += 1 }
                if depth > limit { return index + 1 }
            }
            return depth > limit ? indent + 1 : nil
        }
    }
}
