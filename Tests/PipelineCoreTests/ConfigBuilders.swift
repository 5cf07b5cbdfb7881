@testable import PipelineCore

/// Small builders for config trees, so tests state shapes without YAML.
enum Build {
    static let file = "test.yaml"

    static func at(_ line: Int, _ column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    static func scalar(_ text: String, _ line: Int = 1, _ column: Int = 1, plain: Bool = true) -> ConfigNode {
        ConfigNode(.scalar(ConfigScalar(text: text, isPlain: plain)), at: at(line, column))
    }

    static func mapping(_ pairs: [(String, ConfigNode)], _ line: Int = 1, _ column: Int = 1) -> ConfigNode {
        ConfigNode(
            .mapping(pairs.map { ConfigEntry(key: $0.0, keyLocation: $0.1.location, value: $0.1) }),
            at: at(line, column))
    }

    static func sequence(_ items: [ConfigNode], _ line: Int = 1, _ column: Int = 1) -> ConfigNode {
        ConfigNode(.sequence(items), at: at(line, column))
    }
}
