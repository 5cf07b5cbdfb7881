import PipelineCore
import Yams

/// Turns libyaml's terse errors into diagnostics that say what to do.
enum YAMLErrorTranslator {
    static func diagnostic(for error: YamlError, file: String, text: String) -> Diagnostic {
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let location = SourceLocation(file: file, line: mark.line, column: mark.column)
            if problem.contains("cannot start any token"), character(in: text, at: mark) == "\t" {
                return Diagnostic(
                    .error, "tab character used for indentation", at: location,
                    hint: "YAML indents with spaces only; replace the tab with spaces")
            }
            if problem.contains("found another document") {
                return Diagnostic(
                    .error, "a pipeline file holds one YAML document, but a second one starts here", at: location,
                    hint: "remove the second '---' and what follows it, or move it to its own file")
            }
            let contextText = context.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? ""
            return Diagnostic(.error, "invalid YAML: \(problem)\(contextText)", at: location, hint: hint(for: problem))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let names = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            let key = duplicates.first ?? ""
            let (line, column) =
                secondOccurrence(of: key, in: text, after: context.mark)
                ?? (context.mark.line, context.mark.column)
            return Diagnostic(
                .error, "duplicate key \(names) in one mapping",
                at: SourceLocation(file: file, line: line, column: column),
                hint: "each key may appear once; remove or merge the repeated entry")
        case .reader(let problem, let offset, _, _):
            let (line, column) = offset.map { lineAndColumn(ofCharacterOffset: $0, in: text) } ?? (1, 1)
            return Diagnostic(
                .error, "cannot read YAML: \(problem)", at: SourceLocation(file: file, line: line, column: column))
        default:
            return Diagnostic(.error, "cannot parse YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }

    private static func hint(for problem: String) -> String? {
        if problem.contains("mapping values are not allowed") {
            return "a value containing ': ' must be quoted, or a key is indented wrongly"
        }
        if problem.contains("did not find expected key") || problem.contains("did not find expected '-'") {
            return "check the indentation of this line against the lines above"
        }
        if problem.contains("found undefined alias") { return "define the anchor (&name) before using *name" }
        if problem.contains("end of the stream") || problem.contains("unexpected end") {
            return "a quote or bracket is not closed"
        }
        return nil
    }

    private static func character(in text: String, at mark: Mark) -> Character? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return nil }
        let scalars = lines[mark.line - 1].unicodeScalars
        guard mark.column >= 1, mark.column <= scalars.count else { return nil }
        return Character(scalars[scalars.index(scalars.startIndex, offsetBy: mark.column - 1)])
    }

    /// Yams reports the first occurrence; people need to see the repeated one, which is the one to fix.
    private static func secondOccurrence(of key: String, in text: String, after mark: Mark) -> (Int, Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return nil }
        let indent = mark.column - 1
        for index in mark.line..<lines.count {
            let line = lines[index]
            let leading = line.prefix { $0 == " " }.count
            if leading < indent, !line.allSatisfy({ $0 == " " }), !line.dropFirst(leading).hasPrefix("#") { break }
            let rest = line.dropFirst(indent)
            if leading == indent,
                rest.hasPrefix(key + ":") || rest.hasPrefix("\"\(key)\":") || rest.hasPrefix("'\(key)':")
            {
                return (index + 1, indent + 1)
            }
        }
        return nil
    }

    private static func lineAndColumn(ofCharacterOffset offset: Int, in text: String) -> (Int, Int) {
        var line = 1
        var column = 1
        for character in text.prefix(offset) {
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }
}
