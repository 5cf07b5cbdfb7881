/// One HTTP header, order preserved.
public struct HubHeader: Sendable, Equatable {
    /// The name as written, e.g. `ServiceBusNotification-Format`.
    public var name: String
    /// The value as written.
    public var value: String

    /// Creates a header.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension HubHeader {
    /// True when `name` equals `other` ignoring ASCII case (HTTP header names are case-insensitive).
    func hasName(_ other: String) -> Bool {
        name.lowercased() == other.lowercased()
    }
}

extension HubHeader {
    /// Why this header cannot be written as it is, or nil: a name that is not an HTTP token, or a value with a line
    /// break or another control character (RFC 9110 §5.5), which a row's data can put there. Written, a line break
    /// would end the header early and could add one of the row's making, so the request is not sent at all.
    public var unwritable: String? {
        if name.isEmpty || !name.utf8.allSatisfy(Self.isTokenByte) {
            return "the header name '\(name)' is not a valid HTTP header name"
        }
        for byte in value.utf8 where byte == 0x7F || (byte < 0x20 && byte != 0x09) {
            let what = byte == 0x0A || byte == 0x0D ? "a line break" : "a control character"
            return "the value of header \(name) holds \(what), which a header cannot carry"
        }
        return nil
    }

    /// A byte of an HTTP token (RFC 9110 §5.6.2): letters, digits and `!#$%&'*+-.^_`|~`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "a")...UInt8(ascii: "z"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

extension [HubHeader] {
    /// The value of the first header named `name` (case-insensitive).
    func value(named name: String) -> String? {
        first { $0.hasName(name) }?.value
    }
}

extension HubRequest {
    /// Why the request cannot be written, naming the first header that cannot (`HubHeader.unwritable`); nil when it
    /// can. Transports check it before any attempt.
    public var unwritableHeader: String? {
        headers.lazy.compactMap(\.unwritable).first
    }
}
