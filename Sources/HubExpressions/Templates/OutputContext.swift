/// Where rendered text lands in the output, which decides how it must be escaped.
enum OutputContext: Sendable, Equatable {
    /// Inside a JSON string (the quotes are emitted separately).
    case jsonString
    /// Character data of an XML element.
    case xmlText
    /// An XML attribute value, whichever quote delimits it.
    case xmlAttribute
    /// Plain text (a `for-each` field): nothing is escaped; the caller decides where it lands.
    case plain

    /// `text` escaped for this context, for literals escaped once at compile time.
    func escaped(_ text: String) -> String {
        var out = ""
        OutputEscaping.append(text[...], in: self, to: &out)
        return out
    }
}
