import ArgumentParser
import Foundation

/// JSON encoding shared by every `--format json` output: stable key order, readable, no escaped slashes.
enum JSONOutput {
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else {
            return "{}"
        }
        return text
    }
}

/// Output format for commands that can print JSON.
enum OutputFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    case text, json
}
