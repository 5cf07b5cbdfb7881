import PipelineCore

/// A dotenv file: the settings of one environment (staging, production) as `NAME=value` lines, the same
/// file a systemd unit's `EnvironmentFile=` reads.
///
/// Accepted: blank lines and lines starting with `#`; an optional `export ` before the name; a name of
/// letters, digits and `_` not starting with a digit; a value that is unquoted (surrounding spaces
/// dropped), single-quoted (taken literally) or double-quoted (`\"`, `\\`, `\n`, `\t` and `\$` escaped).
/// Nothing is expanded: `$OTHER` stays as written, as systemd leaves it. A quoted value must close on
/// its line. Every problem is a diagnostic with `file:line:column`, the line and a hint; no value ever
/// appears in a message or a snippet (the snippet stops after the value's opening quote, `…` for the
/// rest), since these files hold connection strings and passwords.
public enum EnvironmentFile {
    /// The largest file read: a settings file is some lines of names, URLs and secrets; anything far larger is a
    /// wrong path, and is refused before it is read whole.
    public static let maxFileBytes = 1 << 20
    /// The longest value, as `${file:}` holds a referenced file: a value is a name, a URL or a secret, never a document.
    public static let maxValueBytes = 64 * 1024

    /// The variables of `text`, read from `file`, and every problem in it (the values are only to be used
    /// when there is none).
    public static func parse(_ text: String, file: String) -> (values: [String: String], problems: [Diagnostic]) {
        var values: [String: String] = [:]
        var problems: [Diagnostic] = []
        // "\r\n" is one Character in Swift: split on it as well as on "\n", or a file saved on Windows is one line.
        for (offset, rawLine) in text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
        ).enumerated() {
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if offset == 0, line.hasPrefix("\u{FEFF}") { line = line.dropFirst() }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            switch entry(trimmed) {
            case .success(let (name, value)) where value.utf8.count > maxValueBytes:
                // Only the name is shown; the value may be a secret.
                let indent = line.count - trimmed.count
                let shown = trimmed.distance(from: trimmed.startIndex, to: trimmed.firstIndex(of: "=")!) + 1
                problems.append(
                    Diagnostic(
                        .error,
                        "the value of \(name) is \(value.utf8.count) bytes; the limit is \(maxValueBytes) bytes",
                        at: SourceLocation(file: file, line: offset + 1, column: indent + 1),
                        hint: "a setting is a name, a URL or a secret; is this the right file?",
                        sourceLine: String(line.prefix(indent + shown)) + "…"))
            case .success(let (name, value)):
                values[name] = value
            case .failure(let problem):
                let column = line.distance(from: line.startIndex, to: problem.at(in: trimmed)) + 1
                let indent = line.count - trimmed.count
                let snippet = problem.shown.map { String(line.prefix(indent + $0)) + "…" }
                problems.append(
                    Diagnostic(
                        .error, problem.message, at: SourceLocation(file: file, line: offset + 1, column: column),
                        hint: problem.hint, sourceLine: snippet))
            }
        }
        return (values, problems)
    }

    /// What is wrong with a line, and where in it.
    struct Problem: Error {
        let message: String
        let hint: String
        /// Characters into the trimmed line.
        let offset: Int
        /// How much of the trimmed line a snippet may show (the name and `=`, up to a value's opening quote);
        /// nil for none (a line without `=` may be a pasted secret).
        var shown: Int?

        func at(in line: Substring) -> Substring.Index {
            line.index(line.startIndex, offsetBy: min(offset, line.count))
        }
    }

    private static func entry(_ line: Substring) -> Result<(String, String), Problem> {
        var rest = line
        if rest.hasPrefix("export"), let after = rest.dropFirst(6).first, after == " " || after == "\t",
            rest.contains("=")
        {
            rest = rest.dropFirst(6).drop { $0 == " " || $0 == "\t" }
        }
        let consumed = line.count - rest.count
        guard let equals = rest.firstIndex(of: "=") else {
            return .failure(
                Problem(
                    message: "this line is not NAME=value", hint: "write NAME=value, or start a comment with #",
                    offset: consumed, shown: nil))
        }
        let name = rest[..<equals].trimmingSuffix()
        guard let first = name.first, first == "_" || (first.isASCII && first.isLetter),
            name.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) })
        else {
            // The text before `=` is not shown: a pasted key (base64 ends in `=`) would otherwise be printed whole.
            return .failure(
                Problem(
                    message: "the text before '=' is not a variable name",
                    hint: "names are letters, digits and _, not starting with a digit", offset: consumed, shown: nil))
        }
        let valueStart = rest.index(after: equals)
        let raw = rest[valueStart...].drop { $0 == " " || $0 == "\t" }
        let valueOffset = consumed + rest.distance(from: rest.startIndex, to: raw.startIndex)
        switch raw.first {
        case "'":
            guard let close = raw.dropFirst().firstIndex(of: "'") else {
                return .failure(
                    Problem(
                        message: "the single quote that opens the value of \(name) is not closed on this line",
                        hint: "close it with ' on the same line", offset: valueOffset, shown: valueOffset + 1))
            }
            guard raw[raw.index(after: close)...].allSatisfy({ $0 == " " || $0 == "\t" }) else {
                return .failure(
                    Problem(
                        message: "there is text after the closing quote of \(name)'s value",
                        hint: "quote the whole value", offset: valueOffset, shown: valueOffset + 1))
            }
            return .success((String(name), String(raw[raw.index(after: raw.startIndex)..<close])))
        case "\"":
            return doubleQuoted(raw.dropFirst(), name: String(name), offset: valueOffset)
        default:
            return .success((String(name), String(raw.trimmingSuffix())))
        }
    }

    private static func doubleQuoted(_ text: Substring, name: String, offset: Int) -> Result<(String, String), Problem>
    {
        var value = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" {
                guard text[text.index(after: index)...].allSatisfy({ $0 == " " || $0 == "\t" }) else {
                    return .failure(
                        Problem(
                            message: "there is text after the closing quote of \(name)'s value",
                            hint: "quote the whole value", offset: offset, shown: offset + 1))
                }
                return .success((name, value))
            }
            if character == "\\", text.index(after: index) < text.endIndex {
                index = text.index(after: index)
                switch text[index] {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "\"", "\\", "$": value.append(text[index])
                default:
                    value.append("\\")
                    value.append(text[index])
                }
            } else {
                value.append(character)
            }
            index = text.index(after: index)
        }
        return .failure(
            Problem(
                message: "the double quote that opens the value of \(name) is not closed on this line",
                hint: "close it with \" on the same line (write \\n for a line break)", offset: offset,
                shown: offset + 1))
    }
}

extension Substring {
    fileprivate func trimmingSuffix() -> Substring {
        var text = self
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
