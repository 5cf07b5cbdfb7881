/// A query string's `name=value` pairs, percent-decoded (`+` is a space, as forms send it).
struct QueryPairs {
    let pairs: [(name: String, value: String)]

    init(_ query: String?) {
        pairs = (query ?? "").split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (Self.decode(parts[0]), parts.count > 1 ? Self.decode(parts[1]) : "")
        }
    }

    var names: [String] { pairs.map(\.name) }

    /// The first value of `name`.
    subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    private static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next(), let low = iterator.next(),
                      let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
                else { bytes.append(byte); continue }
                bytes.append(value)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
