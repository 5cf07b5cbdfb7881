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
    ///
    /// Works on the UTF-8 bytes: every byte that structures a record (`"` `,` space, tab) is ASCII, and the bytes of
    /// other characters are copied whole into their field, so a field is the exact text between its separators. (A
    /// rows file has a row per user, so this runs a million times on a big send.)
    public static func parse(_ text: String) -> CSVLine {
        var fields: [String] = []
        var field: [UInt8] = []
        var state = State.fieldStart
        func finish() {
            if state == .unquoted {
                while let last = field.last, last == space || last == tab { field.removeLast() }
            }
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            state = .fieldStart
        }
        for byte in text.utf8 {
            switch state {
            case .fieldStart:
                if byte == quote {
                    state = .quoted
                } else if byte == comma {
                    finish()
                } else if byte == space || byte == tab {
                    continue
                } else {
                    field.append(byte)
                    state = .unquoted
                }
            case .unquoted:
                if byte == comma {
                    finish()
                } else if byte == quote {
                    return .problem(
                        "field \(fields.count + 1) has a '\"' inside; quote the whole field and double the quote (\"\")"
                    )
                } else {
                    field.append(byte)
                }
            case .quoted:
                if byte == quote { state = .afterQuote } else { field.append(byte) }
            case .afterQuote:
                if byte == quote {
                    field.append(quote)
                    state = .quoted
                } else if byte == comma {
                    finish()
                } else if byte == space || byte == tab {
                    continue
                } else {
                    return .problem("field \(fields.count + 1) has text after its closing quote")
                }
            }
        }
        if state == .quoted { return .needsMore }
        finish()
        return .fields(fields)
    }

    private static let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), space = UInt8(ascii: " "),
        tab = UInt8(ascii: "\t")
}
