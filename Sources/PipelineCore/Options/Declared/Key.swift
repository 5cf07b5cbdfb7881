/// One key of a `DeclaredOptions` type: `@Key(.integer("concurrency", in: 1...256, default: 16, "…")) var
/// concurrency: Int`. The property is the key's value; `$concurrency` is where it was written.
@propertyWrapper
public struct Key<Value: Sendable>: Sendable, DeclaredKey {
    /// The key's value: what the mapping gave, else the declared default.
    public let wrappedValue: Value
    /// Where the value was written; its `node` is nil when the key is absent or could not be read.
    public let projectedValue: OptionSource
    private let read: @Sendable (OptionReader) -> FoundOption?

    /// A key whose property is not optional: its declaration must give a default.
    public init(_ key: OptionKey<Value>) {
        guard let defaultValue = key.defaultValue else {
            preconditionFailure("'\(key.key)' has no default, so its property must be optional")
        }
        let found = OptionDecoding.found?[key.key]
        wrappedValue = (found?.value as? Value) ?? defaultValue
        projectedValue = OptionSource(spec: key.spec, node: found?.node, isRefused: found != nil && found?.value == nil)
        read = { reader in reader.located(key).map { FoundOption(value: $0.value, node: $0.node) } }
    }

    /// A key whose property is optional: nil when absent and without a default, or when it cannot be read.
    public init<Wrapped>(_ key: OptionKey<Wrapped>) where Value == Wrapped? {
        let found = OptionDecoding.found?[key.key]
        if let found, found.value != nil {
            wrappedValue = found.value as? Wrapped
        } else {
            wrappedValue = key.defaultValue
        }
        projectedValue = OptionSource(spec: key.spec, node: found?.node, isRefused: found != nil && found?.value == nil)
        read = { reader in reader.located(key).map { FoundOption(value: $0.value, node: $0.node) } }
    }

    var spec: OptionSpec { projectedValue.spec }

    func find(in reader: OptionReader) -> FoundOption? { read(reader) }
}

/// Where a declared key's value came from: its declaration, and the node it was written at (for diagnostics
/// about the value, and a check that it was given).
public struct OptionSource: Sendable {
    /// The key's declaration.
    public let spec: OptionSpec
    /// The node the value was written at; nil when the key is absent (or null, or an unresolved reference).
    public let node: ConfigNode?
    /// True when the key was given a value that was refused (and reported): the property holds its default,
    /// and checks that compare it with another key skip it.
    public let isRefused: Bool

    /// True when the key was given a value that was read.
    public var isRead: Bool { node != nil && !isRefused }

    /// The key as written in YAML.
    public var key: String { spec.key }
}

/// Keys declared once and shared by several types (the batch keys, the retry keys), as `@KeyGroup` is in
/// swift-argument-parser: `@KeyGroup var retry: RetryKeys`. The group's keys sit in the same mapping as its
/// owner's.
@propertyWrapper
public struct KeyGroup<Group: DeclaredOptions>: Sendable, DeclaredGroup {
    /// The group's values.
    public let wrappedValue: Group

    /// The group, read with its owner.
    public init() { wrappedValue = Group() }

    var members: any DeclaredOptions { wrappedValue }
}
