/// The unescaped text of a JSON string or XML value, with a map back to the template source.
///
/// Expressions are parsed from the decoded text (docs §7: escapes are undone before
/// classifying), but errors must point into the source the user wrote; `sourceOffsets[i]` is
/// the source byte where decoded byte `i` came from, and the extra last entry is the end.
struct DecodedText: Equatable {
    var bytes: [UInt8] = []
    var sourceOffsets: [Int] = []

    /// Text copied verbatim from `source[start..<end]`.
    init(verbatim source: [UInt8], from start: Int, to end: Int) {
        bytes = Array(source[start..<end])
        sourceOffsets = Array(start...end)
    }

    init() {}

    mutating func append(_ byte: UInt8, from offset: Int) {
        bytes.append(byte)
        sourceOffsets.append(offset)
    }

    /// Appends a scalar as UTF-8, every byte mapped to the start of the reference that produced it.
    mutating func append(_ scalar: Unicode.Scalar, from offset: Int) {
        for byte in UTF8.encode(scalar)! { append(byte, from: offset) }
    }

    mutating func finish(at end: Int) {
        sourceOffsets.append(end)
    }
}
