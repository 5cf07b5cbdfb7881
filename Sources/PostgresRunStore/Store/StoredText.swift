/// Text as the PostgreSQL store keeps it: PostgreSQL's `text` cannot hold NUL, which a malformed row can
/// carry into an item's key, target or error, and the SQLite journal keeps exactly.
///
/// Text without NUL is stored as it is, so it stays readable and searchable in SQL. Text with NUL (or that
/// begins with the marker) is stored as the marker followed by the text with `%` and NUL percent-escaped;
/// `decode` reverses it exactly. Equal texts encode equally, so equality in SQL still matches.
enum StoredText {
    static let marker = "\u{1}pushline-escaped:"

    static func encode(_ text: String) -> String {
        guard text.utf8.contains(0) || text.hasPrefix(marker) else { return text }
        var escaped = marker
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{0}": escaped += "%00"
            case "%": escaped += "%25"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    static func encode(_ text: String?) -> String? {
        text.map { encode($0) }
    }

    static func decode(_ stored: String) -> String {
        guard stored.hasPrefix(marker) else { return stored }
        var text = ""
        var scalars = stored.unicodeScalars.dropFirst(marker.unicodeScalars.count)[...]
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            if scalar == "%", scalars.count >= 2 {
                let code = String(String.UnicodeScalarView(scalars.prefix(2)))
                if code == "00" || code == "25" {
                    text += code == "00" ? "\u{0}" : "%"
                    scalars = scalars.dropFirst(2)
                    continue
                }
            }
            text.unicodeScalars.append(scalar)
        }
        return text
    }

    static func decode(_ stored: String?) -> String? {
        stored.map { decode($0) }
    }
}
