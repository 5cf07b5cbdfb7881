/// The content of one JSON string token (quotes excluded), found while scanning.
struct JSONStringToken: Equatable {
    /// Byte offset of the first content byte (just after the opening quote).
    let start: Int
    /// Byte offset of the closing quote.
    let end: Int
    let isKey: Bool
    let hasEscapes: Bool
    /// Which object a key belongs to (for duplicate-key checks); -1 for values.
    let objectID: Int
}
