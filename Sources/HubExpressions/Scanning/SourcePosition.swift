/// A 1-based line and column in UTF-8 text.
///
/// Scanners work on byte offsets for speed; positions are only computed when something is
/// reported. Columns count `Character`s so a caret lines up after non-ASCII text.
struct SourcePosition: Equatable {
    let line: Int
    let column: Int

    /// The position of byte `offset` in `bytes` (an offset at the end means "just after the text").
    init(offset: Int, in bytes: [UInt8]) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == ASCII.lineFeed {
            line += 1
            lineStart = index + 1
        }
        self.line = line
        self.column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
    }
}
