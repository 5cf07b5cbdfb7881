import ArgumentParser

/// Output format for commands that can print JSON.
enum OutputFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    case text, json

    // Concrete, so ArgumentParser's generic defaults (and the runtime conformance lookups they make on
    // every start, help or not) are not used. The strings are the same: the default leaves out
    // descriptions that equal their values, which is every one here.
    static var allValueStrings: [String] { allCases.map(\.rawValue) }
    static var allValueDescriptions: [String: String] { [:] }
    var defaultValueDescription: String { rawValue }
}
