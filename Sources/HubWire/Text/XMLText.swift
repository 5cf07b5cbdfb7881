/// XML text helpers: escaping for writers, entity decoding for `XMLTree`, and a forgiving single-element
/// lookup that error bodies use (they may be truncated or not XML at all, so they never go through the parser).
enum XMLText {
    /// Escapes the five predefined entities (for attribute values and bodies that must escape quotes).
    static func escape(_ text: String) -> String {
        escape(text, quotes: true)
    }

    /// Escapes character data the way the DataContract serializer does: `&`, `<` and `>` only, so JSON in
    /// `PushVariables` keeps its quotes readable. Escaping every `>` also keeps `]]>` out of text.
    static func escapeText(_ text: String) -> String {
        escape(text, quotes: false)
    }

    private static func escape(_ text: String, quotes: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "'" where quotes: out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }

    /// `<name>text</name>` with the text escaped.
    static func leaf(_ name: String, _ text: String) -> String {
        "<\(name)>\(escapeText(text))</\(name)>"
    }

    /// `text` verbatim inside CDATA. A `]]>` in the text would end the section early, so it is split across two
    /// sections (`]]]]><![CDATA[>`), which every parser joins back together.
    static func cdata(_ text: String) -> String {
        let sections = text.split(separator: "]]>", omittingEmptySubsequences: false)
        return "<![CDATA[" + sections.joined(separator: "]]]]><![CDATA[>") + "]]>"
    }

    /// Unescapes predefined and numeric entities; unknown ones are kept verbatim rather than failing.
    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let afterAmp = rest[rest.index(after: amp)...]
            if let semi = afterAmp.firstIndex(of: ";"), afterAmp.distance(from: afterAmp.startIndex, to: semi) <= 10,
                let replacement = entity(String(afterAmp[..<semi]))
            {
                out.append(replacement)
                rest = afterAmp[afterAmp.index(after: semi)...]
            } else {
                out.append("&")
                rest = afterAmp
            }
        }
        return out + rest
    }

    /// Text of the first `<name>…</name>` (attributes allowed, `<name/>` gives ""), unescaped and CDATA-aware.
    static func element(_ name: String, in xml: String) -> String? {
        var search = xml[...]
        while let open = search.firstRange(of: "<\(name)") {
            let afterName = search[open.upperBound...]
            guard let next = afterName.first else { return nil }
            if next == "/" && afterName.dropFirst().first == ">" { return "" }
            guard next == ">" || next.isWhitespace, let close = afterName.firstIndex(of: ">") else {
                search = afterName
                continue
            }
            if afterName[..<close].hasSuffix("/") { return "" }
            let content = afterName[afterName.index(after: close)...]
            guard let end = content.firstRange(of: "</\(name)>") else { return nil }
            return text(of: content[..<end.lowerBound])
        }
        return nil
    }

    private static func text(of raw: Substring) -> String {
        guard let start = raw.firstRange(of: "<![CDATA["), let end = raw[start.upperBound...].firstRange(of: "]]>")
        else { return unescape(String(raw)) }
        return unescape(String(raw[..<start.lowerBound])) + raw[start.upperBound..<end.lowerBound]
            + text(of: raw[end.upperBound...])
    }

    private static func entity(_ name: String) -> Character? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let hex = name.hasPrefix("#x") || name.hasPrefix("#X")
            guard name.hasPrefix("#"),
                let value = UInt32(name.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10),
                let scalar = Unicode.Scalar(value)
            else { return nil }
            return Character(scalar)
        }
    }
}
