/// One lexical token of a tag expression, with the 1-based column where it starts.
struct TagToken: Equatable {
    enum Kind: Equatable {
        case tag(String)
        case openParen, closeParen, not, and, or
    }

    let kind: Kind
    let column: Int

    /// How the token is spelled, for messages such as "expected a tag after '&&'".
    var spelling: String {
        switch kind {
        case .tag(let name): return name
        case .openParen: return "("
        case .closeParen: return ")"
        case .not: return "!"
        case .and: return "&&"
        case .or: return "||"
        }
    }
}
