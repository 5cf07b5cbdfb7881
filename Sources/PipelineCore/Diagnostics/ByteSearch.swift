extension Substring {
    /// Whether `needle` occurs in the text, compared byte for byte as UTF-8.
    ///
    /// For the ASCII markers the loaders look for (`\r\n`, `${`, `${param:`): Foundation's `contains` and
    /// `range(of:)` go through NSString and cost more than the rest of reading a pipeline file on a cold
    /// `pushline validate`, and the standard library's Character-based search would not find `\n` inside
    /// a `\r\n`. Concrete (not on StringProtocol) so that no generic code runs unspecialised.
    public func contains(bytes needle: String) -> Bool {
        firstByteRange(of: needle) != nil
    }

    /// The range of the first occurrence of `needle`, compared byte for byte as UTF-8 (see
    /// `contains(bytes:)`); an ASCII needle's bounds fall on Character boundaries of the text.
    public func firstByteRange(of needle: String) -> Range<Index>? {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty else { return startIndex..<startIndex }
        let found =
            utf8.withContiguousStorageIfAvailable { text -> Int? in
                Self.firstOffset(of: pattern, in: text)
            } ?? Self.firstOffset(of: pattern, in: Array(utf8))
        guard let found else { return nil }
        let lower = utf8.index(startIndex, offsetBy: found)
        return lower..<utf8.index(lower, offsetBy: pattern.count)
    }

    /// The byte offset of the first occurrence of `pattern` (not empty) in `text`.
    private static func firstOffset(of pattern: [UInt8], in text: some RandomAccessCollection<UInt8>) -> Int? {
        guard text.count >= pattern.count else { return nil }
        let first = pattern[0]
        var offset = 0
        for byte in text {
            if byte == first, offset + pattern.count <= text.count,
                text.dropFirst(offset).starts(with: pattern)
            {
                return offset
            }
            offset += 1
        }
        return nil
    }
}

extension String {
    /// Whether `needle` occurs in the text, compared byte for byte as UTF-8 (see `Substring.contains(bytes:)`).
    public func contains(bytes needle: String) -> Bool {
        Substring(self).contains(bytes: needle)
    }
}
