extension PercentCoding {
    private static let upperDigits = Array("0123456789ABCDEF".utf8)

    /// Form-encodes a query value: unreserved bytes stay, a space becomes `+`, every other UTF-8 byte `%XX`
    /// (upper-case hex), as in `$filter=ChannelUri+eq+%27…%27`.
    public static func formEncode(_ text: String) -> String {
        escape(text) { byte in
            if isUnreserved(byte) { return .keep }
            return byte == UInt8(ascii: " ") ? .replace(UInt8(ascii: "+")) : .escape
        }
    }

    /// Escapes only what cannot stand in a query value as is — space, `&`, `+`, `#`, controls, non-ASCII and
    /// the like — and keeps `%` escapes, so a value the service already encoded survives unchanged.
    static func encodeQueryUnsafe(_ text: String) -> String {
        escape(text) { byte in
            if isUnreserved(byte) { return .keep }
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "="), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "@"),
                UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "*"), UInt8(ascii: ","), UInt8(ascii: ";"):
                return .keep
            default:
                return .escape
            }
        }
    }

    private enum ByteAction {
        case keep, escape
        case replace(UInt8)
    }

    private static func escape(_ text: String, _ action: (UInt8) -> ByteAction) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            switch action(byte) {
            case .keep:
                out.append(byte)
            case .replace(let replacement):
                out.append(replacement)
            case .escape:
                out.append(UInt8(ascii: "%"))
                out.append(upperDigits[Int(byte >> 4)])
                out.append(upperDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
