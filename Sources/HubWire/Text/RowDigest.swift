/// A short, stable digest of a row's content (FNV-1a, 64 bits): enough to tell that a resumed run
/// reads the same row it journalled, cheap enough for a million rows.
public enum RowDigest {
    /// The digest of `fields` (each field's length is mixed in, so `["ab","c"]` ≠ `["a","bc"]`).
    public static func of(_ fields: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for field in fields {
            var field = field
            field.withUTF8 { bytes in
                for byte in bytes {
                    hash ^= UInt64(byte)
                    hash &*= 0x0000_0100_0000_01b3
                }
            }
            hash ^= UInt64(field.utf8.count) | 0x8000_0000_0000_0000
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
