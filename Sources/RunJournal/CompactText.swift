/// How the journal stores the hex-heavy text of every item in fewer bytes: a row digest, a notification id and a default
/// idempotency key are mostly lowercase hex digits, which take one byte each as text and half a byte as bytes. A million
/// items carry three of them each, so this is most of what keeps the journal small.
///
/// A value that qualifies is stored as a BLOB: one byte naming its prefix, one byte counting the hex bytes, the hex
/// bytes, then whatever text followed them. Anything else stays TEXT, as written. The encoding is a function of the text
/// (one text, one stored value), so equality in SQL is equality of the texts, and `decode` gives back exactly the text
/// that was encoded; a journal written before this (all TEXT) reads the same.
enum CompactText {
    /// The prefixes a compacted value may start with, by their code. `generic` values (digests, notification ids)
    /// may only use the empty one; keys only `request:` and `device:`, so a declared key (`pipeline/step2:…`) is
    /// always TEXT, which `runs find` matches on by its parts.
    static let prefixes = ["", "request:", "device:"]

    /// The fewest hex digits worth compacting: below this the two header bytes eat the gain.
    static let fewestDigits = 16
    /// The most: the count is one byte.
    static let mostDigits = 2 * 255

    /// `text` as the bytes it is stored as, or nil when it is stored as TEXT. A key (`forKey`) is compacted only after
    /// `request:` or `device:` (the default keys); other values only when they start with hex digits.
    static func encode(_ text: String, forKey: Bool) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        for code in (forKey ? 1..<prefixes.count : 0..<1) {
            let prefix = Array(prefixes[code].utf8)
            guard utf8.count >= prefix.count + fewestDigits, utf8.starts(with: prefix) else { continue }
            var end = prefix.count
            while end < utf8.count, end - prefix.count < mostDigits, hexValue(utf8[end]) != nil { end += 1 }
            // An odd run leaves its last digit to the text after it.
            let digits = (end - prefix.count) & ~1
            guard digits >= fewestDigits else { return nil }
            var stored: [UInt8] = [UInt8(code), UInt8(digits / 2)]
            stored.reserveCapacity(2 + digits / 2 + utf8.count - prefix.count - digits)
            var index = prefix.count
            while index < prefix.count + digits {
                stored.append(hexValue(utf8[index])! << 4 | hexValue(utf8[index + 1])!)
                index += 2
            }
            stored.append(contentsOf: utf8[index...])
            return stored
        }
        return nil
    }

    /// The text that `bytes` (a stored BLOB) encodes; nil for bytes this encoding never writes.
    static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? where Bytes.Index == Int {
        guard bytes.count >= 2 else { return nil }
        let start = bytes.startIndex
        let code = Int(bytes[start])
        let count = Int(bytes[start + 1])
        guard code < prefixes.count, bytes.count >= 2 + count else { return nil }
        var utf8 = Array(prefixes[code].utf8)
        utf8.reserveCapacity(utf8.count + 2 * count + bytes.count - 2 - count)
        let digits = Array("0123456789abcdef".utf8)
        for byte in bytes[(start + 2)..<(start + 2 + count)] {
            utf8.append(digits[Int(byte >> 4)])
            utf8.append(digits[Int(byte & 0x0f)])
        }
        utf8.append(contentsOf: bytes[(start + 2 + count)...])
        return String(decoding: utf8, as: UTF8.self)
    }

    /// A lowercase hex digit's value; nil for anything else (upper case stays text, so decoding gives it back as written).
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
