import PipelineCore

/// Parses one CSV record (RFC 4180): comma-separated fields, `"…"` quoting with `""` for a quote.
///
/// Quoted fields may hold commas, `|` and line breaks; a record that ends inside quotes asks for the next
/// line. Spaces around unquoted fields and around quotes are dropped. A quote inside an unquoted field is
/// an error rather than a guess.
public enum CSVLine: Equatable {
    /// The fields of a complete record.
    case fields([String])
    /// The record ends inside a quoted field: append a line break and the next line, then parse again.
    case needsMore
    /// The record is malformed.
    case problem(String)

    private enum State { case fieldStart, unquoted, quoted, afterQuote }

    /// Parses `text`, which holds one record (possibly several physical lines joined with LF).
    public static func parse(_ text: String) -> CSVLine {
        var fields: [String] = []
        var field = ""
        var state = State.fieldStart
        func finish() {
            fields.append(state == .unquoted ? trimmed(field) : field)
            field = ""
            state = .fieldStart
        }
        for character in text {
            switch state {
            case .fieldStart:
                if character == "\"" { state = .quoted }
                else if character == "," { finish() }
                else if character == " " || character == "\t" { continue }
                else { field.append(character); state = .unquoted }
            case .unquoted:
                if character == "," { finish() }
                else if character == "\"" {
                    return .problem("field \(fields.count + 1) has a '\"' inside; quote the whole field and double the quote (\"\")")
                } else { field.append(character) }
            case .quoted:
                if character == "\"" { state = .afterQuote } else { field.append(character) }
            case .afterQuote:
                if character == "\"" { field.append("\""); state = .quoted }
                else if character == "," { finish() }
                else if character == " " || character == "\t" { continue }
                else { return .problem("field \(fields.count + 1) has text after its closing quote") }
            }
        }
        if state == .quoted { return .needsMore }
        finish()
        return .fields(fields)
    }

    private static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
