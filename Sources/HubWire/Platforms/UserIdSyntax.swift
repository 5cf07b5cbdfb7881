/// The rules NH applies to an installation's user id (nh-rest-api.md §3), so client checks and the
/// emulator agree.
public enum UserIdSyntax {
    /// Characters allowed besides ASCII letters and digits.
    static let punctuation: Set<Character> = ["-", "_", "@", "#", ".", ":", "="]

    /// Why `userId` is not a valid NH user id; nil when it is.
    public static func problem(with userId: String) -> String? {
        guard !userId.isEmpty else { return "userId is empty" }
        if let bad = userId.first(where: { !(($0.isLetter || $0.isNumber) && $0.isASCII) && !punctuation.contains($0) })
        {
            return
                "userId '\(ShownText.abbreviated(userId))' contains \(ShownText.character(bad)), which is not allowed (letters, digits and - _ @ # . : = only)"
        }
        return nil
    }
}
