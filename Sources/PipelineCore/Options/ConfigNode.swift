/// A YAML value with the place it was written, independent of the YAML library.
///
/// The loader builds these from parsed YAML so that steps can decode their options, and report
/// `file:line:column` diagnostics, without importing the YAML parser.
public struct ConfigNode: Sendable, Equatable {
    /// The shape of a node.
    public indirect enum Value: Sendable, Equatable {
        /// A scalar. `isPlain` is false for quoted and block scalars, which are always strings.
        case scalar(ConfigScalar)
        /// A mapping, keys in source order.
        case mapping([ConfigEntry])
        /// A sequence.
        case sequence([ConfigNode])
    }

    /// The value.
    public var value: Value
    /// Where the value starts.
    public var location: SourceLocation

    /// Creates a node.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }

    /// The scalar, if this is one.
    public var scalar: ConfigScalar? {
        if case .scalar(let scalar) = value { return scalar }
        return nil
    }

    /// The entries, if this is a mapping.
    public var entries: [ConfigEntry]? {
        if case .mapping(let entries) = value { return entries }
        return nil
    }

    /// The items, if this is a sequence.
    public var items: [ConfigNode]? {
        if case .sequence(let items) = value { return items }
        return nil
    }

    /// True for an explicit or implicit YAML null (`~`, `null`, or nothing).
    public var isNull: Bool { scalar?.isNull ?? false }

    /// The entry for `key` in a mapping.
    public subscript(key: String) -> ConfigNode? {
        entries?.first { $0.key == key }?.value
    }

    /// True when this node or any node inside it holds an unresolved reference.
    public var containsUnresolved: Bool {
        switch value {
        case .scalar(let scalar): return scalar.isUnresolved
        case .mapping(let entries): return entries.contains { $0.value.containsUnresolved }
        case .sequence(let items): return items.contains { $0.containsUnresolved }
        }
    }

    /// Every scalar inside this node that holds step output references, in document order.
    public var deferredScalars: [(scalar: ConfigScalar, node: ConfigNode)] {
        switch value {
        case .scalar(let scalar): return scalar.deferred == nil ? [] : [(scalar, self)]
        case .mapping(let entries): return entries.flatMap(\.value.deferredScalars)
        case .sequence(let items): return items.flatMap(\.deferredScalars)
        }
    }

    /// A short name for the node's kind, for "expected X, found Y" messages.
    public var kindName: String {
        switch value {
        case .scalar(let scalar): return scalar.isNull ? "nothing" : "a scalar"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }
}

/// One `key: value` pair of a mapping.
public struct ConfigEntry: Sendable, Equatable {
    /// The key text.
    public var key: String
    /// Where the key is written (diagnostics about unknown keys point here).
    public var keyLocation: SourceLocation
    /// The value.
    public var value: ConfigNode

    /// Creates an entry.
    public init(key: String, keyLocation: SourceLocation, value: ConfigNode) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}
