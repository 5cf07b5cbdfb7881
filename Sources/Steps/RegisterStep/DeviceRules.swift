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
        platform.handleProblem(handle, what: what)
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
            return "userId '\(ShownText.abbreviated(userId))' contains \(ShownText.character(bad)), which is not allowed (letters, digits and - _ @ # . : = only)"
        }
        return nil
    }
}

/// Why a device is invalid, in one sentence.
struct DeviceProblem: Error, Equatable {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
