/// How a property's value is shaped before it is escaped for its container (docs §7.2).
enum ValueTransform: Equatable, Sendable {
    /// `$(p)` and `#(p)`: the value as is.
    case whole
    /// `$(p, n)`: the first `n` characters.
    case prefix(Int)
    /// `.(p, n)`: at most `n` characters, the last three being `...` when the value was cut.
    case ellipsis(Int)
    /// `%(p)`: RFC 3986 percent-encoding of the UTF-8 bytes.
    case percentEncoded
}

/// One `$(…)`, `.(…)`, `%(…)` or `#(…)` token.
struct PropertyReference: Equatable, Sendable {
    /// The property name as written in the template.
    let name: String
    /// `name` lower-cased once at compile time, so rendering never folds case.
    let key: String
    let transform: ValueTransform

    init(name: String, transform: ValueTransform) {
        self.name = name
        self.key = ASCII.lowercased(name)
        self.transform = transform
    }
}
