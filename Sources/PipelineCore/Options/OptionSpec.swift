/// Documentation of one YAML key a step (or a pipeline section) accepts.
///
/// Steps own their keys: each step module lists its `OptionSpec`s, and the same list drives
/// unknown-key detection, the hints of diagnostics and the JSON Schema (`pushline schema`).
public struct OptionSpec: Sendable, Equatable {
    /// The value types a key can take, as documented to users.
    public indirect enum ValueType: Sendable, Equatable {
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
        /// A number, whole or not (`200`, `0.5`).
        case number
        /// A mapping of string keys to string values.
        case stringMap
        /// A list of strings.
        case stringList
        /// A path relative to the pipeline file.
        case path
        /// One of a fixed set of words.
        case oneOf([String])
        /// One of a fixed set of words, in any case (platform names).
        case anyCaseOf([String])
        /// A mapping with exactly these keys (unknown keys are errors).
        case mapping([OptionSpec])
        /// A mapping of names the author chooses to mappings with these keys (`hubs:`, `templates:`).
        case namedMappings([OptionSpec])
        /// A list whose items all have this type.
        case list(ValueType)
        /// Any one of these types, e.g. a file path or an inline list.
        case anyOf([ValueType])
        /// The pipeline's `steps:` list: one-key mappings naming a registered step.
        case steps
        /// A name of letters, digits, `-` and `_` (a step's id).
        case identifier
        /// One line of text, not blank.
        case line
        /// One of these words, or an expression the reader parses (a step's `when:`).
        case wordOrExpression([String])
        /// The `id:` of an earlier step that hands on `output` (the step whose notifications `outcomes` reads); the
        /// pipeline checks it names one when it is built.
        case earlierStep(output: String)
        /// Any YAML value: text, a number, a boolean, a list or a mapping (an expected value in a test file).
        case anyValue

        /// How the type reads in documentation.
        public var documentation: String {
            switch self {
            case .string: return "string"
            case .reference(let what): return "\(what) name"
            case .duration: return "duration (e.g. 20m, 1h)"
            case .boolean: return "boolean"
            case .integer: return "integer"
            case .number: return "number"
            case .stringMap: return "mapping of strings"
            case .stringList: return "list of strings"
            case .path: return "path (relative to the pipeline file)"
            case .oneOf(let words): return words.joined(separator: " | ")
            case .anyCaseOf(let words): return words.joined(separator: " | ") + " (any case)"
            case .mapping(let keys): return "mapping of \(keys.map(\.key).joined(separator: ", "))"
            case .namedMappings(let keys): return "mapping of names to { \(keys.map(\.key).joined(separator: ", ")) }"
            case .list(let item): return "list of \(item.documentation)"
            case .anyOf(let types): return types.map(\.documentation).joined(separator: ", or ")
            case .steps: return "list of steps"
            case .identifier: return "name (letters, digits, - and _)"
            case .line: return "one line of text"
            case .wordOrExpression(let words): return words.joined(separator: " | ") + ", or an expression"
            case .earlierStep(let output): return "id of an earlier step (one that hands on `\(output)`)"
            case .anyValue: return "any value"
            }
        }

        /// True when a value of this type may be a path to a file (whose content is then an input).
        public var acceptsPath: Bool {
            switch self {
            case .path: return true
            case .anyOf(let types): return types.contains(where: \.acceptsPath)
            default: return false
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
    /// Example values as written in YAML (editors offer them; the schema lists them).
    public let examples: [String]
    /// The smallest and largest value of an integer, a number or a duration (in seconds), enforced when the
    /// value is read and stated in the documentation and the schema.
    public internal(set) var bounds: ClosedRange<Double>?
    /// Keys that cannot be given beside this one, and what to do instead.
    public internal(set) var exclusion: Exclusion?
    /// A key without which this one has no meaning, and what to do about it.
    public internal(set) var requirement: Requirement?
    /// Whether its value is a secret (a plugin's token, a webhook URL that is its own credential): hidden in whatever
    /// Pushline shows of the step that takes it.
    public internal(set) var isSecret = false

    /// Keys that exclude a key: giving one of them beside it is an error with `hint`.
    public struct Exclusion: Sendable, Equatable {
        /// The keys that cannot be given beside the key.
        public let keys: [String]
        /// What to do instead.
        public let hint: String
    }

    /// A key without which another has no meaning.
    public struct Requirement: Sendable, Equatable {
        /// The key that must be given too.
        public let key: String
        /// Why, as the end of "'rate' applies only with 'for-each': …".
        public let reason: String
        /// What to do instead.
        public let hint: String
    }

    /// How the type reads in documentation, with its bounds (`integer, 1 to 256`).
    public var typeDocumentation: String {
        guard let bounds else { return type.documentation }
        switch type {
        case .duration:
            return
                "duration, \(ConfigDuration.format(Int64(bounds.lowerBound))) to \(ConfigDuration.format(Int64(bounds.upperBound)))"
        default:
            return
                "\(type.documentation), \(Self.formatBound(bounds.lowerBound)) to \(Self.formatBound(bounds.upperBound))"
        }
    }

    /// A bound as written in YAML: whole numbers without a fraction.
    static func formatBound(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// This key, refused beside `keys` with `hint`.
    public func excluding(_ keys: [String], hint: String) -> OptionSpec {
        var copy = self
        copy.exclusion = Exclusion(keys: keys, hint: hint)
        return copy
    }

    /// This key, its value a secret.
    public func secret() -> OptionSpec {
        var copy = self
        copy.isSecret = true
        return copy
    }

    /// This key, accepted only beside `key`.
    public func requiring(_ key: String, because reason: String, hint: String) -> OptionSpec {
        var copy = self
        copy.requirement = Requirement(key: key, reason: reason, hint: hint)
        return copy
    }

    /// Creates a key description.
    public init(
        _ key: String, _ type: ValueType, required: Bool = false, default defaultValue: String? = nil,
        examples: [String] = [], _ summary: String
    ) {
        self.key = key
        self.type = type
        self.isRequired = required
        self.defaultValue = defaultValue
        self.examples = examples
        self.summary = summary
    }
}

extension OptionSpec {
    /// The same key, documented as another type (a key read as text whose words are checked where it is used).
    public func documented(as type: ValueType) -> OptionSpec { with(type: type, summary: summary) }

    /// The same key with another summary (a shared key whose meaning a step narrows).
    public func described(_ summary: String) -> OptionSpec { with(type: type, summary: summary) }

    /// This key with `type` and `summary`, everything else kept.
    private func with(type: ValueType, summary: String) -> OptionSpec {
        var copy = OptionSpec(key, type, required: isRequired, default: defaultValue, examples: examples, summary)
        copy.bounds = bounds
        copy.exclusion = exclusion
        copy.requirement = requirement
        copy.isSecret = isSecret
        return copy
    }
}
