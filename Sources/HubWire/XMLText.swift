/// Just enough XML text handling for error bodies; the Atom models will bring a real parser later.
enum XMLText {
    /// Escapes the five predefined entities.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
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
               let replacement = entity(String(afterAmp[..<semi])) {
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
                  let scalar = Unicode.Scalar(value) else { return nil }
            return Character(scalar)
        }
    }
}
