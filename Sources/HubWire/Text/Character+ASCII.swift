extension Character {
    /// `0`–`9` only (not other Unicode digits).
    var isASCIIDigit: Bool {
        ("0"..."9").contains(self) && isASCII
    }
}
