/// Documentation of one YAML key a step (or a pipeline section) accepts.
///
/// Steps own their keys: each step module lists its `OptionSpec`s, and the same list drives
/// unknown-key detection, `--help`-style docs and (later) the JSON Schema.
public struct OptionSpec: Sendable, Equatable {
    /// The value types a key can take, as documented to users.
    public enum ValueType: Sendable, Equatable {
        /// Free text.
        case string
        /// A name declared elsewhere in the pipeline (a hub, audience or template).
        case reference(String)
        /// A duration such as `90s`, `20m`, `1h`, `1h30m`.
        case duration
        /// `true` or `false`.
        case boolean
        /// A whole number.
        case integer
        /// A mapping of string keys to string values.
        case stringMap
        /// A list of strings.
        case stringList
        /// A path relative to the pipeline file.
        case path
        /// One of a fixed set of words.
        case oneOf([String])

        /// How the type reads in documentation.
        public var documentation: String {
            switch self {
            case .string: return "string"
            case .reference(let what): return "\(what) name"
            case .duration: return "duration (e.g. 20m, 1h)"
            case .boolean: return "boolean"
            case .integer: return "integer"
            case .stringMap: return "mapping of strings"
            case .stringList: return "list of strings"
            case .path: return "path (relative to the pipeline file)"
            case .oneOf(let words): return words.joined(separator: " | ")
            }
        }
    }

    /// The key as written in YAML.
    public let key: String
    /// The value type.
    public let type: ValueType
    /// Whether the key must be present.
    public let isRequired: Bool
    /// The default, as documented (nil when required or when absence has its own meaning).
    public let defaultValue: String?
    /// One line saying what the key does.
    public let summary: String

    /// Creates a key description.
    public init(_ key: String, _ type: ValueType, required: Bool = false, default defaultValue: String? = nil, _ summary: String) {
        self.key = key
        self.type = type
        self.isRequired = required
        self.defaultValue = defaultValue
        self.summary = summary
    }
}
