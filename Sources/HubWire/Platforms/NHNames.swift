/// Character rules for the names NH gives hubs and access policies.
///
/// Checking them keeps mistakes visible early, and keeps a key pasted into the wrong field from being
/// signed into a URL and printed in reports.
public enum NHNames {
    /// Longest hub name (DOTNET `Constants.cs`).
    public static let maxHubNameLength = 260
    /// Longest policy (key) name.
    public static let maxPolicyNameLength = 256

    /// Why `name` is not a usable hub name, or nil. Hub names use letters, digits, `.`, `-` and `_`,
    /// start and end with a letter or digit, and may be a path of such segments (`a/b`). The message
    /// never quotes the name.
    public static func hubNameProblem(_ name: String) -> String? {
        guard !name.isEmpty, name.count <= maxHubNameLength else {
            return "a hub name must be 1 to \(maxHubNameLength) characters"
        }
        let segments = name.split(separator: "/", omittingEmptySubsequences: false)
        for segment in segments {
            guard let first = segment.first, let last = segment.last, isAlphanumeric(first), isAlphanumeric(last),
                segment.allSatisfy({ isAlphanumeric($0) || $0 == "." || $0 == "-" || $0 == "_" })
            else {
                return
                    "a hub name may contain only letters, digits, '.', '-' and '_' (and '/' between segments), starting and ending with a letter or digit"
            }
        }
        return nil
    }

    /// True when `name` is a usable access-policy name: letters, digits, `.`, `-`, `_`.
    public static func isPolicyName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= maxPolicyNameLength
            && name.allSatisfy { isAlphanumeric($0) || $0 == "." || $0 == "-" || $0 == "_" }
    }

    private static func isAlphanumeric(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber)
    }
}
