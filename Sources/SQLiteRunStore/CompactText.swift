/// How the journal stores the hex-heavy text of every item in fewer bytes: a row digest, a notification id and a default
/// idempotency key are mostly lowercase hex digits, which take one byte each as text and half a byte as bytes. A million
/// items carry three of them each, so this is most of what keeps the journal small.
///
/// A value that qualifies is stored as a BLOB: one byte naming its prefix, one byte counting the hex bytes, the hex
/// bytes, then whatever text followed them. Anything else stays TEXT, as written. The encoding is a function of the text
/// (one text, one stored value), so equality in SQL is equality of the texts, and `decode` gives back exactly the text
/// that was encoded; a journal written before this (all TEXT) reads the same.
///
/// A value that is not a key and whose text after the hex digits is only `-` and decimal numbers (a notification id:
/// NH's `73622a22…c14112ce-20181107001834-33331921-18`, the emulator's `…-42`) keeps those numbers as varints instead,
/// and says so with `decimalGroups` in its prefix byte: NH's 27 characters become 12 bytes. Keys never use that form,
/// so a key is stored exactly as journals before it stored it, and the dedupe lookups of an older journal still match.
enum CompactText {
    /// The prefixes a compacted value may start with, by their code. `generic` values (digests, notification ids)
    /// may only use the empty one; keys only `request:` and `device:`, so a declared key (`pipeline/step2:…`) is
    /// always TEXT, which `runs find` matches on by its parts.
    static let prefixes = ["", "request:", "device:"]

    /// The fewest hex digits worth compacting: below this the two header bytes eat the gain.
    static let fewestDigits = 16
    /// The most: the count is one byte.
    static let mostDigits = 2 * 255
    /// Set in the prefix byte when the rest is `-`-separated decimal numbers stored as varints.
    static let decimalGroups: UInt8 = 0x80

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
            let rest = utf8[index...]
            if !forKey, let groups = Self.groups(rest) {
                stored[0] |= decimalGroups
                for number in groups { appendVarint(number, to: &stored) }
            } else {
                stored.append(contentsOf: rest)
            }
            return stored
        }
        return nil
    }

    /// The text that `bytes` (a stored BLOB) encodes; nil for bytes this encoding never writes.
    static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? where Bytes.Index == Int {
        guard bytes.count >= 2 else { return nil }
        let start = bytes.startIndex
        let grouped = bytes[start] & decimalGroups != 0
        let code = Int(bytes[start] & ~decimalGroups)
        let count = Int(bytes[start + 1])
        guard code < prefixes.count, bytes.count >= 2 + count else { return nil }
        var utf8 = Array(prefixes[code].utf8)
        utf8.reserveCapacity(utf8.count + 2 * count + bytes.count - 2 - count)
        let digits = Array("0123456789abcdef".utf8)
        for byte in bytes[(start + 2)..<(start + 2 + count)] {
            utf8.append(digits[Int(byte >> 4)])
            utf8.append(digits[Int(byte & 0x0f)])
        }
        if grouped {
            var index = start + 2 + count
            guard index < bytes.endIndex else { return nil }
            while index < bytes.endIndex {
                guard let number = varint(bytes, at: &index) else { return nil }
                utf8.append(UInt8(ascii: "-"))
                utf8.append(contentsOf: String(number).utf8)
            }
        } else {
            utf8.append(contentsOf: bytes[(start + 2 + count)...])
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// The first four bytes of the hex digits a key is compacted to (what the key index holds of it, `LedgerSQL.keyPrefix`),
    /// as a big-endian number; nil for a key stored as TEXT. The same as bytes 2 to 5 of `encode(key, forKey: true)`,
    /// without building them: every row of a batch asks.
    static func keyIndexBytes(_ key: String) -> UInt32? {
        let utf8 = key.utf8
        for code in 1..<prefixes.count {
            let prefix = prefixes[code].utf8
            guard utf8.starts(with: prefix) else { continue }
            var value: UInt32 = 0
            var digits = 0
            for byte in utf8.dropFirst(prefix.count).prefix(fewestDigits) {
                guard let digit = hexValue(byte) else { return nil }
                if digits < 8 { value = value << 4 | UInt32(digit) }
                digits += 1
            }
            return digits == fewestDigits ? value : nil
        }
        return nil
    }

    /// A row digest (16 lowercase hex digits) as the INTEGER the journal stores it as (8 bytes, not a 10-byte BLOB); nil
    /// for any other text, which is stored as `encode` says.
    static func integer(_ text: String) -> Int64? {
        guard text.utf8.count == 16 else { return nil }
        var value: UInt64 = 0
        for byte in text.utf8 {
            guard let digit = hexValue(byte) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return Int64(bitPattern: value)
    }

    /// The 16 hex digits an `integer` stands for.
    static func text(ofInteger value: Int64) -> String {
        let hex = String(UInt64(bitPattern: value), radix: 16)
        return String(repeating: "0", count: 16 - hex.utf8.count) + hex
    }

    /// The numbers of `-N-N…` when each is a canonical decimal (no sign, no leading zero) that fits 64 bits; nil otherwise.
    private static func groups(_ rest: ArraySlice<UInt8>) -> [UInt64]? {
        guard !rest.isEmpty else { return nil }
        var numbers: [UInt64] = []
        var index = rest.startIndex
        while index < rest.endIndex {
            guard rest[index] == UInt8(ascii: "-") else { return nil }
            index += 1
            let first = index
            var number: UInt64 = 0
            while index < rest.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(rest[index]) {
                let (times, overflowTimes) = number.multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) = times.addingReportingOverflow(UInt64(rest[index] - UInt8(ascii: "0")))
                guard !overflowTimes, !overflowSum else { return nil }
                number = sum
                index += 1
            }
            // Empty, or a leading zero (`-007` would come back as `-7`).
            guard index > first, rest[first] != UInt8(ascii: "0") || index == first + 1 else { return nil }
            numbers.append(number)
        }
        return numbers
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private static func varint<Bytes: Collection<UInt8>>(_ bytes: Bytes, at index: inout Int) -> UInt64?
    where Bytes.Index == Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.endIndex, shift < 64 {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
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
