/// The keys of one mapping (a step's options, a group of keys steps share) declared as one Swift type: each key
/// is a stored property wrapped in `@Key`, whose `OptionKey` gives its spelling, type, default, bounds and
/// meaning; a shared group of keys is a property wrapped in `@KeyGroup`. From that one declaration Pushline
/// derives the key list (unknown-key errors and "did you mean", the JSON Schema, the steps reference, editor
/// completion) and reads the values:
///
/// ```swift
/// struct QuietHoursOptions: DeclaredOptions {
///     @Key(.text("time-zone", default: "UTC", "the IANA zone the hours are in")) var timeZone: String
///     @Key(.integer("from", in: 0...23, default: 22, "the first quiet hour")) var from: Int
///     init() {}
/// }
/// ```
///
/// A key whose property is optional is nil when absent (unless its declaration has a default); a key whose
/// property is not optional must declare a default. A value that cannot be read is reported at its
/// `file:line:column` and the property keeps its default, so a step builds only when `errorCount` did not grow.
public protocol DeclaredOptions: Sendable {
    /// Every key at its default: the declaration itself, and the value of a mapping that gives no key.
    init()

    /// Checks what the declarations cannot say (one key shorter than another, a value that depends on two
    /// keys), reporting through `reader`. Runs after every key was read, a group's before its owner's.
    func check(_ reader: OptionReader)
}

extension DeclaredOptions {
    /// Most groups of keys have no rule beyond their declarations.
    public func check(_ reader: OptionReader) {}

    /// Every key declared, in declaration order, a group's keys where the group is.
    public static var specs: [OptionSpec] { declaration.declaredKeys.map(\.spec) }

    /// Every key at its default, whatever mapping is being read around it.
    static var declaration: Self { OptionDecoding.$found.withValue(nil) { Self() } }

    /// Reads every declared key of `reader`'s mapping (unknown keys were reported when the reader was made),
    /// then runs the checks.
    public init(reading reader: OptionReader) {
        self.init(found: Self.found(in: reader, keys: nil))
        runChecks(reader)
    }

    /// The values read for the declared keys of `reader`'s mapping, by key (all of them when `keys` is nil).
    static func found(in reader: OptionReader, keys: Set<String>?) -> [String: FoundOption] {
        var found: [String: FoundOption] = [:]
        for key in Self.declaration.declaredKeys where keys?.contains(key.spec.key) ?? true {
            if let value = key.find(in: reader) {
                found[key.spec.key] = value
            } else if let node = reader.node(key.spec.key) {
                // Given, but refused (and reported): the property keeps its default, and says so.
                found[key.spec.key] = FoundOption(value: nil, node: node)
            }
        }
        return found
    }

    /// The value holding `found`, every other key at its default.
    init(found: [String: FoundOption]) {
        self = OptionDecoding.$found.withValue(found) { Self() }
    }

    /// The keys of this value's `@Key` properties and of its groups', in declaration order.
    var declaredKeys: [any DeclaredKey] {
        Mirror(reflecting: self).children.flatMap { child -> [any DeclaredKey] in
            if let key = child.value as? any DeclaredKey { return [key] }
            if let group = child.value as? any DeclaredGroup { return group.members.declaredKeys }
            return []
        }
    }

    /// Runs the groups' checks, then this value's.
    func runChecks(_ reader: OptionReader) {
        for child in Mirror(reflecting: self).children {
            (child.value as? any DeclaredGroup)?.members.runChecks(reader)
        }
        check(reader)
    }
}

extension OptionReader {
    /// Reads `node`, a mapping inside one of this mapping's values (a device of a list), as `Value` declares it:
    /// unknown keys with "did you mean", each value at its place, then `Value`'s checks. Problems carry this
    /// reader's step, and keys naming a hub or a template see the same declarations.
    /// - Returns: the values, and the item's reader (for problems about the item as a whole).
    public func read<Value: DeclaredOptions>(_ type: Value.Type, from node: ConfigNode, what: String) -> (
        values: Value, reader: OptionReader
    ) {
        var nested = OptionReader(node, specs: Value.specs, step: step, what: what, diagnostics: diagnostics)
        nested.context = context
        return (Value(reading: nested), nested)
    }
}

/// A value read for a key, with the node it was read from; no value when the node was refused.
struct FoundOption: Sendable {
    let value: (any Sendable)?
    let node: ConfigNode
}

/// What `@Key` properties read while a `DeclaredOptions` value is made by `init(reading:)`: the values found for
/// the mapping's keys, by key. Outside that, nil: properties take their defaults (the declaration).
enum OptionDecoding {
    @TaskLocal static var found: [String: FoundOption]?
}

/// A declared key, whatever the type of its value.
protocol DeclaredKey: Sendable {
    var spec: OptionSpec { get }
    /// The key's value and node in `reader`'s mapping; nil when absent or after reporting why it cannot be read.
    func find(in reader: OptionReader) -> FoundOption?
}

/// A group of keys declared in another's type.
protocol DeclaredGroup: Sendable {
    var members: any DeclaredOptions { get }
}
