/// A parsed NH tag expression such as `(follows_RedSox || follows_Cardinals) && location_Boston` (docs §6).
///
/// Parsing checks syntax and every tag; the service's tag-count limits are checked separately by
/// ``limitViolation()`` so callers can report both kinds of problem.
public struct TagExpression: Sendable, Equatable, CustomStringConvertible {
    /// The expression tree. `and`/`or` are n-ary and flattened: `a && (b && c)` has one `and` node.
    public indirect enum Node: Sendable, Equatable {
        /// A single tag, spelled as in the source.
        case tag(String)
        /// `!operand`.
        case not(Node)
        /// All operands must hold.
        case and([Node])
        /// At least one operand must hold.
        case or([Node])
    }

    /// The text the expression was parsed from.
    public let source: String
    /// The root of the parsed tree.
    public let root: Node
    /// 1-based columns of each tag occurrence, parallel to ``tags``.
    let tagColumns: [Int]

    /// Parses `source`, checking syntax and tag validity (but not NH's tag-count limits).
    public init(parsing source: String) throws(TagExpressionError) {
        if Self.isSingleValidTag(source) {
            self.init(source: source, root: .tag(source), tagColumns: [1])
        } else {
            try self.init(parsingFully: source)
        }
    }

    private init(source: String, root: Node, tagColumns: [Int]) {
        self.source = source
        self.root = root
        self.tagColumns = tagColumns
    }

    /// Parses `source` through the lexer and parser, whatever it holds (`init(parsing:)` takes a single tag short).
    init(parsingFully source: String) throws(TagExpressionError) {
        let chars = Array(source)
        let tokens = try TagExpressionLexer.tokenize(chars)
        var parser = TagExpressionParser(tokens: tokens)
        self.root = try parser.parse()
        self.tagColumns = parser.tagColumns
        self.source = source
    }

    /// Every tag occurrence in source order; duplicates are kept because NH counts occurrences.
    public var tags: [String] {
        var result: [String] = []
        root.collectTags(into: &result)
        return result
    }
}

extension TagExpression.Node {
    func collectTags(into result: inout [String]) {
        switch self {
        case .tag(let name): result.append(name)
        case .not(let operand): operand.collectTags(into: &result)
        case .and(let operands), .or(let operands):
            for operand in operands { operand.collectTags(into: &result) }
        }
    }
}
