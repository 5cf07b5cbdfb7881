import HubWire
import PipelineCore

/// The platforms `register` handles. The other offline checks every device passes are NH's own rules, shared
/// with the rest of Pushline: `PushPlatform.handleProblem`, `TagSyntax.problems(in:limit:)`, `UserIdSyntax`.
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
        return .failure(
            DeviceProblem("platform '\(text)' is not supported\(Suggestion.didYouMean(text, in: names)); use \(list)"))
    }
}

/// Why a device is invalid, in one sentence.
struct DeviceProblem: Error, Equatable {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
