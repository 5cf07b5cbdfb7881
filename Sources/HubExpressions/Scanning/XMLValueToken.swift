/// A place in an XML document where an expression may stand (docs §7.1).
struct XMLValueToken: Equatable {
    enum Kind: Equatable {
        /// The whole value of an attribute (between the quotes).
        case attribute
        /// The whole content of a leaf element (no child elements, comments or PIs).
        case text
    }

    let kind: Kind
    /// Byte offset of the first content byte.
    let start: Int
    /// Byte offset just past the content.
    let end: Int
}
