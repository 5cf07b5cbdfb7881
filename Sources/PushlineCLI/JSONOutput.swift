import ArgumentParser
import Foundation
import RunFlow

/// JSON encoding shared by every `--format json` output: the run flow's (`JSONText`), so reports on the
/// console and in `--report` files are the same text.
enum JSONOutput {
    static func encode(_ value: some Encodable) -> String {
        JSONText.encode(value)
    }
}

/// Output format for commands that can print JSON.
enum OutputFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    case text, json
}
