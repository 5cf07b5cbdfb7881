/// How the journal stores an item's target in fewer bytes. A personalised send's target is almost always one user's or
/// one installation's tag (`$UserId:{u0203}`, `$InstallationId:{…}`), so a million items would repeat the same 10 to 18
/// characters of wrapping a million times.
///
/// Such a target is stored as a BLOB: one byte naming the wrapping, then the text inside it. Any other target stays
/// TEXT, as written. Like `CompactText`, the encoding is a function of the text and `decode` gives back exactly that text;
/// `runs find` searches the decoded text (the `pushline_text` SQL function), and a journal written before this (all
/// TEXT) reads the same.
enum CompactTarget {
    /// The wrappings by their code (code 0 is never written, so a BLOB starting with it is not a target).
    static let wrappings: [(open: String, close: String)] = [("", ""), ("$UserId:{", "}"), ("$InstallationId:{", "}")]

    /// `text` as the bytes it is stored as, or nil when it is stored as TEXT.
    static func encode(_ text: String) -> [UInt8]? {
        let utf8 = text.utf8
        for code in 1..<wrappings.count {
            let (open, close) = (wrappings[code].open.utf8, wrappings[code].close.utf8)
            guard utf8.count > open.count + close.count, utf8.starts(with: open),
                utf8.reversed().starts(with: close.reversed())
            else {
                continue
            }
            return [UInt8(code)] + utf8.dropFirst(open.count).dropLast(close.count)
        }
        return nil
    }

    /// The text that `bytes` (a stored BLOB) encodes; nil for bytes this encoding never writes.
    static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        guard let first = bytes.first, first > 0, Int(first) < wrappings.count else { return nil }
        let wrapping = wrappings[Int(first)]
        return wrapping.open + String(decoding: bytes.dropFirst(), as: UTF8.self) + wrapping.close
    }
}
