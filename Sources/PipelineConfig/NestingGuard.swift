import PipelineCore

/// Rejects absurdly deep nesting before the YAML parser sees it.
///
/// The parser builds nodes recursively, so 100,000 nested `[` would overflow the stack and crash
/// instead of producing a diagnostic. The scan is an over-estimate (it counts flow brackets outside
/// quotes and block indicators at line starts), which is fine: real pipelines nest a few levels.
enum NestingGuard {
    /// The location of the first place nesting exceeds `limit`, if any.
    static func firstViolation(in text: String, limit: Int, file: String) -> SourceLocation? {
        var depth = 0
        var line = 1, column = 0
        var quote: Character?
        var inComment = false
        var atLineStart = true
        var blockDepth = 0
        for character in text {
            column += 1
            if character == "\n" {
                line += 1; column = 0
                inComment = false; atLineStart = true; blockDepth = 0
                if quote == "'" || quote == "\"" { continue }
                continue
            }
            if inComment { continue }
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            if atLineStart {
                // Leading spaces and "- " / "? " indicators each open a level of block nesting.
                if character == " " || character == "-" || character == "?" {
                    if character != " " { blockDepth += 1 }
                    if blockDepth + column / 2 > limit * 4 { return SourceLocation(file: file, line: line, column: column) }
                    continue
                }
                atLineStart = false
            }
            switch character {
            case "#": inComment = true
            case "'", "\"": quote = character
            case "[", "{":
                depth += 1
                if depth > limit { return SourceLocation(file: file, line: line, column: column) }
            case "]", "}": depth = max(0, depth - 1)
            default: break
            }
        }
        return nil
    }
}
