import Foundation
import PipelineCore

/// Hides a plugin's secrets (its secret `env:` values, its secret options' values) in whatever Pushline shows of its
/// words (stderr lines, errors, summaries, text outputs), as it hides every other credential. Only those values: an
/// `env:` value that is no secret (`ROWS=1000`) stays readable.
struct PluginRedaction: Sendable {
    /// Values long enough to be worth hiding (a 1- or 2-character value would blank ordinary text), longest first.
    let secrets: [String]

    init(secrets: [String]) {
        self.secrets = Set(secrets.filter { $0.count >= 3 }).sorted { $0.count > $1.count }
    }

    /// The secrets of `declaration` and of the options a step gives it.
    init(_ declaration: PluginDeclaration, options: [String] = []) {
        self.init(secrets: declaration.secretValues + options)
    }

    /// `text` with each secret replaced by `<redacted>`, and the credentials every output hides.
    func callAsFunction(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: "<redacted>")
        }
        return SecretRedaction.redact(result)
    }
}
