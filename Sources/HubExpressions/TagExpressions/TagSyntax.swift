/// The rules NH applies to a single tag (docs §6).
public enum TagSyntax: Sendable {
    /// The longest tag NH accepts, in characters.
    public static let maxLength = 120

    /// The characters allowed in a tag, besides ASCII letters and digits: `_ @ # . : -`.
    // A switch, not a Set<Character>: the set's first use made the runtime look up Character's Hashable
    // conformance by scanning every conformance record in the binary, on every start.
    static func isPunctuation(_ c: Character) -> Bool {
        switch c {
        case "_", "@", "#", ".", ":", "-": return true
        default: return false
        }
    }

    /// Returns `nil` when `tag` is a valid NH tag, otherwise a message saying what is wrong.
    ///
    /// Accepts the special `$InstallationId:{…}` and `$UserId:{…}` forms, whose braces may also hold `=`.
    public static func problem(with tag: String) -> String? {
        diagnose(Array(tag))?.message
    }

    /// What is wrong with a device's tag list: more than `limit` tags (position nil), or a tag NH rejects (its
    /// position). Empty when every tag is fine.
    public static func problems(in tags: [String], limit: Int) -> [(position: Int?, message: String)] {
        var problems: [(position: Int?, message: String)] = []
        if tags.count > limit { problems.append((nil, "\(tags.count) tags; NH allows at most \(limit) per device")) }
        for (position, tag) in tags.enumerated() {
            if let problem = problem(with: tag) { problems.append((position, "invalid tag: \(problem)")) }
        }
        return problems
    }

    /// The hint attached to invalid-character errors, shared so messages stay identical everywhere.
    static let characterHint = "tags may contain only letters, digits and _ @ # . : -"

    /// A tag problem with the 0-based character offset it refers to.
    struct Problem: Equatable {
        let kind: TagExpressionError.Kind
        let message: String
        let offset: Int
        let hint: String?
    }

    static func isTagCharacter(_ c: Character) -> Bool {
        isASCIIAlphanumeric(c) || isPunctuation(c)
    }

    static func isASCIIAlphanumeric(_ c: Character) -> Bool {
        guard let a = c.asciiValue else { return false }
        return (a >= 0x30 && a <= 0x39) || (a >= 0x41 && a <= 0x5A) || (a >= 0x61 && a <= 0x7A)
    }

    /// Validates one tag, reporting the first problem and where it is.
    static func diagnose(_ chars: [Character]) -> Problem? {
        let text = String(chars)
        guard !chars.isEmpty else {
            return Problem(kind: .invalidTag, message: "tag is empty", offset: 0, hint: nil)
        }
        if chars.count > maxLength {
            return Problem(
                kind: .tagTooLong,
                message: "tag '\(text.prefix(20))…' is \(chars.count) characters long; NH allows at most \(maxLength)",
                offset: maxLength, hint: "shorten the tag")
        }
        if chars[0] == "$" { return diagnoseSpecial(chars) }
        for (offset, c) in chars.enumerated() where !isTagCharacter(c) {
            return Problem(
                kind: .invalidTag,
                message: "tag '\(text)' contains \(describe(c)), which is not allowed",
                offset: offset, hint: characterHint)
        }
        return nil
    }

    /// Describes a character so that invisible ones (space, tab) are still readable in a message.
    static func describe(_ c: Character) -> String {
        switch c {
        case " ": return "a space"
        case "\t": return "a tab"
        case "\n", "\r", "\r\n": return "a line break"
        default: return "'\(c)'"
        }
    }
}
