/// A short name for a text's content (FNV-1a, 64 bits, in hex): the same content always gets the same name, across
/// runs and processes. A name, not a security digest.
enum ContentName {
    static func of(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
