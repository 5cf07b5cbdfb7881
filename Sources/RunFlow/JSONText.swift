import Foundation

/// JSON as Pushline writes it everywhere (reports, `--format json`, the run summary's readers): keys sorted,
/// indented, slashes not escaped, so the same value is always the same text.
package enum JSONText {
    /// `value` as JSON text; `{}` for a value that cannot be encoded.
    package static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else { return "{}" }
        return text
    }
}
