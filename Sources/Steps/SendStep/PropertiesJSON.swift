/// A template send's body when the step names no template: the properties as a flat JSON object of
/// strings, keys in UTF-8 byte order, `/` not escaped.
///
/// These are the bytes `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` writes (a test holds
/// them equal over random properties), written without the encoder: a batch send builds one per row, and
/// the encoder's boxing and dynamic casts were a tenth of a row's cost. The bytes must not change, since a
/// row's default idempotency key is a digest of its body.
enum PropertiesJSON {
    /// The object for `properties`, in any order.
    static func encode(_ properties: [String: String]) -> [UInt8] {
        encode(
            sorted: properties.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) })
    }

    /// The object for `pairs`, already in key order (see `ordered`).
    static func encode(sorted pairs: [(key: String, value: String)]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(pairs.reduce(2) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 })
        out.append(UInt8(ascii: "{"))
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            append(pair.key, to: &out)
            out.append(UInt8(ascii: ":"))
            append(pair.value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `keys` in the order the object lists them.
    static func ordered(_ keys: some Sequence<String>) -> [String] {
        keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// `text` as a JSON string: quote, backslash and control characters escaped as the encoder does
    /// (`\b \f \n \r \t`, else `\u00XX` in lower case); everything else as it is.
    private static func append(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20:
                out += [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                    hex[Int(byte & 0xF)],
                ]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
