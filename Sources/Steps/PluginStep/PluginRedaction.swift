import PipelineCore

/// Hides the values a plugin was given in `env:` in whatever Pushline shows of its words (stderr lines, errors,
/// summaries, text outputs), as it hides every other secret.
struct PluginRedaction: Sendable {
    /// Values long enough to be worth hiding (a 1- or 2-character value would blank ordinary text), longest first.
    let secrets: [String]

    init(_ environment: [String: String]) {
        secrets = Set(environment.values.filter { $0.count >= 3 }).sorted { $0.count > $1.count }
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
