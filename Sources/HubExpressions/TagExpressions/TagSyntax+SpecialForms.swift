extension TagSyntax {
    /// What a `$…:{…}` tag targets.
    enum SpecialForm: Equatable {
        case installation(String)
        case user(String)
    }

    /// The prefixes NH reserves; matched case-insensitively like the .NET client's regex.
    static let specialPrefixes: [(prefix: String, make: @Sendable (String) -> SpecialForm)] = [
        ("$installationid:{", { .installation($0) }),
        ("$userid:{", { .user($0) }),
    ]

    /// Splits a tag that is a valid special form into what it targets; `nil` for ordinary or invalid tags.
    static func specialForm(of tag: String) -> SpecialForm? {
        guard tag.first == "$", tag.last == "}" else { return nil }
        let lower = tag.lowercased()
        for entry in specialPrefixes where lower.hasPrefix(entry.prefix) {
            let inner = tag.dropFirst(entry.prefix.count).dropLast()
            return inner.isEmpty ? nil : entry.make(String(inner))
        }
        return nil
    }

    static func isBraceCharacter(_ c: Character) -> Bool {
        isTagCharacter(c) || c == "="
    }

    /// Validates `$InstallationId:{…}` / `$UserId:{…}`; `chars` starts with `$`.
    static func diagnoseSpecial(_ chars: [Character]) -> Problem? {
        let text = String(chars)
        let lower = text.lowercased()
        let hint = "only $InstallationId:{id} and $UserId:{id} may start with '$'"
        guard let entry = specialPrefixes.first(where: { lower.hasPrefix($0.prefix) }) else {
            return Problem(
                kind: .invalidTag, message: "tag '\(text)' starts with '$' but is not a special tag",
                offset: 0, hint: hint)
        }
        let open = entry.prefix.count
        var index = open
        while index < chars.count, chars[index] != "}" {
            if !isBraceCharacter(chars[index]) {
                return Problem(
                    kind: .invalidTag,
                    message: "tag '\(text)' contains \(describe(chars[index])), which is not allowed",
                    offset: index, hint: "inside {…} only letters, digits and _ @ # . : - = are allowed")
            }
            index += 1
        }
        if index == chars.count {
            return Problem(
                kind: .invalidTag, message: "tag '\(text)' is missing its closing '}'",
                offset: chars.count - 1, hint: nil)
        }
        if index == open {
            return Problem(
                kind: .invalidTag, message: "tag '\(text)' has nothing between '{' and '}'",
                offset: index, hint: "write the id inside the braces, e.g. $UserId:{alice}")
        }
        if index != chars.count - 1 {
            return Problem(
                kind: .invalidTag, message: "tag '\(text)' continues after its closing '}'",
                offset: index + 1, hint: nil)
        }
        return nil
    }
}
