/// One YAML key, declared once: what documents it (its `OptionSpec`: help, the steps reference, the JSON
/// Schema, unknown-key hints) and how its value is read and checked. A `@Key` property of a `DeclaredOptions` type
/// wraps one, so a key's spelling, type, bounds and default live in one place.
public struct OptionKey<Value: Sendable>: Sendable {
    /// The key's documentation; a step's `options` list is made of these.
    public let spec: OptionSpec
    /// The value when the key is absent; nil when absence has its own meaning.
    public let defaultValue: Value?
    /// Reads a present, resolved value, or reports why it cannot and returns nil.
    let decode: @Sendable (OptionReader, ConfigNode) -> Value?
    /// True when the value is read as written: even empty, or holding a reference resolved only when a step runs.
    private(set) var readsAsWritten = false

    /// Declares a key read by `decode`, which reports its own problems at the node it is given.
    public init(
        _ spec: OptionSpec, default defaultValue: Value? = nil,
        decode: @escaping @Sendable (OptionReader, ConfigNode) -> Value?
    ) {
        self.spec = spec
        self.defaultValue = defaultValue
        self.decode = decode
    }

    /// The key as written in YAML.
    public var key: String { spec.key }

    /// The same key, refused beside `keys` (each naming a key of the same mapping) with `hint`.
    public func excluding(_ keys: [String], hint: String) -> OptionKey {
        with(spec.excluding(keys, hint: hint))
    }

    /// The same key, accepted only beside `key`.
    public func requiring(_ key: String, because reason: String, hint: String) -> OptionKey {
        with(spec.requiring(key, because: reason, hint: hint))
    }

    /// The same key and reading, documented as another type (`.anyCaseOf(words)` for text checked where it is used).
    public func documented(as type: OptionSpec.ValueType) -> OptionKey {
        with(spec.documented(as: type))
    }

    /// The same key and reading, described for another step (a shared key whose meaning a step narrows).
    public func described(_ summary: String) -> OptionKey {
        with(spec.described(summary))
    }

    /// The same key and reading with `spec` as its documentation.
    private func with(_ spec: OptionSpec) -> OptionKey {
        var key = OptionKey(spec, default: defaultValue, decode: decode)
        key.readsAsWritten = readsAsWritten
        return key
    }

    /// The same key, its node handed to `decode` as written, even empty or holding a reference to a step's output:
    /// for a key its reader parses itself (a step's `when:`).
    package func asWritten() -> OptionKey {
        var key = self
        key.readsAsWritten = true
        return key
    }
}

extension OptionReader {
    /// The value of a declared key: its default when absent (or an already reported unresolved reference),
    /// the decoded value when present, nil after reporting a problem.
    public func value<Value>(_ option: OptionKey<Value>) -> Value? {
        guard let node = node(of: option) else { return option.defaultValue }
        return option.decode(self, node)
    }

    /// The value of a declared key with the node it was read from; nil when absent or after reporting a problem.
    public func located<Value>(_ option: OptionKey<Value>) -> (value: Value, node: ConfigNode)? {
        guard let node = node(of: option), let value = option.decode(self, node) else { return nil }
        return (value, node)
    }

    /// The node of a declared key, if present, not null and not an unresolved reference.
    public func node<Value>(_ option: OptionKey<Value>) -> ConfigNode? { node(of: option) }

    /// The node `option` reads: as written when it says so, else only a present, resolved value.
    private func node<Value>(of option: OptionKey<Value>) -> ConfigNode? {
        option.readsAsWritten ? entries.first { $0.key == option.key }?.value : node(option.key)
    }

    /// True when a declared key is present (even if null).
    public func contains<Value>(_ option: OptionKey<Value>) -> Bool { contains(option.key) }

    /// True when a declared key is given a value, resolved or not (what exclusions and requirements look at).
    public func isGiven<Value>(_ option: OptionKey<Value>) -> Bool { isGiven(option.key) }

    /// True when the key is given a value, resolved or not.
    public func isGiven(_ key: String) -> Bool { entries.contains { $0.key == key && !$0.value.isNull } }
}
