import ArgumentParser

/// Output format for commands that can print JSON.
enum OutputFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    case text, json
}
