/// A header value of the form `token; name=value; name="quoted value"` (Content-Type, Content-Disposition).
struct HeaderValue: Equatable {
    /// The part before the first `;`, trimmed and lower-cased, e.g. `multipart/mixed`.
    var token: String
    /// Parameters by lower-cased name; values unquoted (`\"` unescaped).
    var parameters: [String: String]

    /// Splits at `;` outside quotes. Spaces around `=` are allowed (the JS SDK sends `boundary = "…"`); a
    /// parameter without `=` is ignored.
    init(_ text: String) {
        var pieces: [String] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if inQuotes && character == "\\" {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if character == ";" && !inQuotes {
                pieces.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        pieces.append(current)
        token = pieces[0].trimmingWhitespace().lowercased()
        parameters = [:]
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let name = piece[..<equals].trimmingWhitespace().lowercased()
            parameters[name] = Self.unquote(piece[piece.index(after: equals)...].trimmingWhitespace())
        }
    }

    private static func unquote(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        var out = ""
        var escaped = false
        for character in value.dropFirst().dropLast() {
            if !escaped && character == "\\" {
                escaped = true
                continue
            }
            escaped = false
            out.append(character)
        }
        return out
    }
}
