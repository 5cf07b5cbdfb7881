import HubExpressions
import HubWire
import PipelineCore

/// The offline checks every device passes before a request is built: platform, handle shape, tags, user id.
///
/// Each check returns a sentence for the user, or nil when the value is fine. The same sentences become
/// build diagnostics for YAML devices and `file:line` reasons for file rows.
enum DeviceRules {
    /// The platforms `register` can check handles for.
    static let platforms: [PushPlatform] = [.apns, .fcmv1, .gcm, .wns]

    /// The platform named by `text` (any case), or why not.
    static func platform(_ text: String) -> Result<PushPlatform, DeviceProblem> {
        let names = platforms.map(\.rawValue)
        if let platform = PushPlatform(caseInsensitive: text), platforms.contains(platform) {
            return .success(platform)
        }
        let list = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        return .failure(DeviceProblem("platform '\(text)' is not supported\(Suggestion.didYouMean(text, in: names)); use \(list)"))
    }

    /// Why `handle` cannot be a `platform` handle; `what` names the field (`pushChannel`, `handle`).
    static func handleProblem(_ handle: String, platform: PushPlatform, what: String) -> String? {
        guard !handle.isEmpty else { return "\(what) is empty" }
        let shown = "\(what) '\(abbreviated(handle))'"
        switch platform {
        case .apns:
            if let bad = handle.first(where: { !$0.isHexDigit || !$0.isASCII }) {
                return "\(shown) is not an APNs device token: \(describe(bad)) is not a hex digit"
            }
            if handle.count % 2 != 0 {
                return "\(shown) is not an APNs device token: it has an odd number of hex digits (\(handle.count))"
            }
            return nil
        case .fcmv1, .gcm:
            if let bad = handle.first(where: { $0.isWhitespace }) {
                return "\(shown) is not an FCM registration token: it contains \(describe(bad))"
            }
            return nil
        case .wns:
            let lower = handle.lowercased()
            guard lower.hasPrefix("https://"), lower.count > "https://".count, lower.dropFirst(8).first != "/" else {
                return "\(shown) is not a WNS channel URI: it must be an https:// URL"
            }
            if let bad = handle.first(where: { $0.isWhitespace }) {
                return "\(shown) is not a WNS channel URI: it contains \(describe(bad))"
            }
            return nil
        default:
            return nil
        }
    }

    /// Why `tags` cannot be an installation's or registration's tags: too many, or a tag NH rejects.
    /// `position` is the index of the offending tag, nil for the count.
    static func tagProblems(_ tags: [String]) -> [(position: Int?, message: String)] {
        var problems: [(position: Int?, message: String)] = []
        if tags.count > NHLimits.maxTagsPerInstallation {
            problems.append((nil, "\(tags.count) tags; NH allows at most \(NHLimits.maxTagsPerInstallation) per device"))
        }
        for (position, tag) in tags.enumerated() {
            if let problem = TagSyntax.problem(with: tag) { problems.append((position, "invalid tag: \(problem)")) }
        }
        return problems
    }

    /// Characters NH allows in a user id besides ASCII letters and digits (nh-rest-api.md §3).
    private static let userIdPunctuation: Set<Character> = ["-", "_", "@", "#", ".", ":", "="]

    /// Why `userId` is not a valid NH user id.
    static func userIdProblem(_ userId: String) -> String? {
        guard !userId.isEmpty else { return "userId is empty" }
        if let bad = userId.first(where: { !(($0.isLetter || $0.isNumber) && $0.isASCII) && !userIdPunctuation.contains($0) }) {
            return "userId '\(abbreviated(userId))' contains \(describe(bad)), which is not allowed (letters, digits and - _ @ # . : = only)"
        }
        return nil
    }

    /// Names a character so invisible ones (space, tab) stay readable in messages.
    static func describe(_ c: Character) -> String {
        switch c {
        case " ": "a space"
        case "\t": "a tab"
        case "\n", "\r", "\r\n": "a line break"
        default: "'\(c)'"
        }
    }

    /// Long handles (WNS URLs, FCM tokens) shortened for messages.
    static func abbreviated(_ text: String) -> String {
        text.count > 24 ? text.prefix(20) + "…" : text
    }
}

/// Why a device is invalid, in one sentence.
struct DeviceProblem: Error, Equatable {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
