/// The kinds of key most options are: each declares its documentation and its reading together.
extension OptionKey where Value == String {
    /// Free text; a plain `12345` or `true` is read as its text.
    public static func text(
        _ key: String, required: Bool = false, default defaultValue: String? = nil, examples: [String] = [],
        _ summary: String
    ) -> OptionKey {
        OptionKey(
            OptionSpec(key, .string, required: required, default: defaultValue, examples: examples, summary),
            default: defaultValue
        ) { reader, _ in reader.string(key)?.value }
    }

    /// A path, relative to the pipeline file when written in it.
    public static func path(_ key: String, required: Bool = false, examples: [String] = [], _ summary: String)
        -> OptionKey
    {
        OptionKey(OptionSpec(key, .path, required: required, examples: examples, summary)) { reader, _ in
            reader.string(key)?.value
        }
    }

    /// One word out of a fixed set, with "did you mean".
    public static func word(_ key: String, _ words: [String], default defaultValue: String, _ summary: String)
        -> OptionKey
    {
        OptionKey(OptionSpec(key, .oneOf(words), default: defaultValue, summary), default: defaultValue) { reader, _ in
            reader.oneOf(key, words)
        }
    }
}

extension OptionKey where Value == Bool {
    /// `true` or `false`.
    public static func flag(_ key: String, default defaultValue: Bool? = false, _ summary: String) -> OptionKey {
        OptionKey(
            OptionSpec(key, .boolean, default: defaultValue.map { $0 ? "true" : "false" }, summary),
            default: defaultValue
        ) { reader, _ in
            reader.bool(key)
        }
    }
}

extension OptionKey where Value == Int {
    /// A whole number within `range`.
    public static func integer(
        _ key: String, in range: ClosedRange<Int>, default defaultValue: Int? = nil, examples: [String] = [],
        _ summary: String
    ) -> OptionKey {
        var spec = OptionSpec(key, .integer, default: defaultValue.map(String.init), examples: examples, summary)
        spec.bounds = Double(range.lowerBound)...Double(range.upperBound)
        return OptionKey(spec, default: defaultValue) { reader, _ in reader.integer(key, in: range) }
    }
}

extension OptionKey where Value == Double {
    /// A number within `range`, whole or not (`200`, `0.5`).
    public static func number(_ key: String, in range: ClosedRange<Double>, examples: [String] = [], _ summary: String)
        -> OptionKey
    {
        var spec = OptionSpec(key, .number, examples: examples, summary)
        spec.bounds = range
        return OptionKey(spec) { reader, node in
            guard let text = node.scalar?.text.trimmingCharacters(), let number = Double(text), number.isFinite,
                range.contains(number)
            else {
                let example = examples.first.map { " (e.g. \($0))" } ?? ""
                reader.error(
                    "'\(key)' must be a number from \(OptionSpec.formatBound(range.lowerBound)) to \(OptionSpec.formatBound(range.upperBound))\(example), found \(node.scalar?.quoted ?? node.kindName)",
                    at: node)
                return nil
            }
            return number
        }
    }
}

extension OptionKey where Value == Int64 {
    /// A duration (`90s`, `20m`, `1h30m`) in seconds within `range`; a bare `0` when the range starts at 0.
    public static func duration(
        _ key: String, in range: ClosedRange<Int64>, required: Bool = false, default defaultValue: Int64? = nil,
        examples: [String] = [], _ summary: String
    ) -> OptionKey {
        var spec = OptionSpec(
            key, .duration, required: required, default: defaultValue.map(ConfigDuration.format), examples: examples,
            summary)
        spec.bounds = Double(range.lowerBound)...Double(range.upperBound)
        return OptionKey(spec, default: defaultValue) { reader, node in
            if range.lowerBound == 0, node.scalar?.text.trimmingCharacters() == "0" { return 0 }
            return reader.duration(key, in: range)
        }
    }
}

extension OptionKey where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of an enumeration's cases, by its raw value, without a default: its property is optional.
    public static func choice(_ key: String, required: Bool = false, _ summary: String) -> OptionKey {
        let words = Value.allCases.map(\.rawValue)
        return OptionKey(OptionSpec(key, .oneOf(words), required: required, summary)) { reader, _ in
            reader.oneOf(key, words).flatMap(Value.init(rawValue:))
        }
    }

    /// One of an enumeration's cases, by its raw value.
    public static func choice(_ key: String, default defaultValue: Value, _ summary: String) -> OptionKey {
        let words = Value.allCases.map(\.rawValue)
        return OptionKey(OptionSpec(key, .oneOf(words), default: defaultValue.rawValue, summary), default: defaultValue)
        { reader, _ in
            reader.oneOf(key, words).flatMap(Value.init(rawValue:))
        }
    }
}

extension OptionKey where Value == [(key: String, value: String)] {
    /// A mapping of names to text, in source order.
    public static func stringMap(_ key: String, examples: [String] = [], _ summary: String) -> OptionKey {
        OptionKey(OptionSpec(key, .stringMap, examples: examples, summary), default: []) { reader, _ in
            reader.stringMap(key)
        }
    }
}

extension OptionKey where Value == [(value: String, node: ConfigNode)] {
    /// A list of text, each with its node; a single text is a one-item list.
    public static func stringList(_ key: String, required: Bool = false, examples: [String] = [], _ summary: String)
        -> OptionKey
    {
        OptionKey(OptionSpec(key, .stringList, required: required, examples: examples, summary), default: []) {
            reader, _ in reader.stringList(key)
        }
    }
}

extension OptionKey where Value == ConfigNode {
    /// A value whose shape its decoder checks (a list of device mappings, or a path): the declaration documents
    /// it, the decoder reads the node.
    public static func node(_ spec: OptionSpec) -> OptionKey {
        OptionKey(spec) { _, node in node }
    }
}

extension OptionKey where Value: DeclaredOptions {
    /// A mapping whose keys `Value` declares (`outcomes: { wait: 10m }`), read with them: unknown keys with "did you
    /// mean", each value at its place, then `Value`'s checks.
    public static func mapping(_ key: String, examples: [String], _ summary: String) -> OptionKey {
        OptionKey(OptionSpec(key, .mapping(Value.specs), examples: examples, summary)) { reader, node in
            guard node.entries != nil else {
                reader.error(
                    "'\(key)' must be a mapping such as \(examples.first ?? "{ key: value }"), found \(node.kindName)",
                    at: node,
                    hint: "`\(key):` holds \(Value.specs.map(\.key).joined(separator: ", ")): \(summary)")
                return nil
            }
            let errorsBefore = reader.diagnostics.errorCount
            let value = reader.read(Value.self, from: node, what: "'\(key)'").values
            return reader.diagnostics.errorCount == errorsBefore ? value : nil
        }
    }
}

extension OptionKey where Value == HubDeclaration {
    /// `hub`: the declared hub a step talks to, required; its value is the declaration.
    public static func hub(_ summary: String) -> OptionKey {
        OptionKey(OptionSpec("hub", .reference("hub"), required: true, summary)) { reader, _ in
            guard let (name, node) = reader.string("hub") else { return nil }
            return reader.context?.hub(named: name, at: node, in: reader)
        }
    }
}

extension OptionKey where Value == String {
    /// The `id:` of an earlier step that hands on `output`; that the step exists, comes earlier and has the output is
    /// checked when the pipeline is built.
    public static func earlierStep(_ key: String, output: String, examples: [String] = [], _ summary: String)
        -> OptionKey
    {
        OptionKey(OptionSpec(key, .earlierStep(output: output), required: true, examples: examples, summary)) {
            reader, node in
            guard let (id, node) = reader.string(key) else { return nil }
            guard !id.isEmpty, id.allSatisfy(OutputReference.isIdCharacter) else {
                reader.error(
                    "'\(key)' must be the id of an earlier step, found \(node.scalar?.quoted ?? "")", at: node,
                    hint: "write the `id:` you gave that step, e.g. \(key): digest")
                return nil
            }
            return id
        }
    }
}

extension OptionKey where Value == TemplateDeclaration {
    /// A key naming a declared template; its value is the declaration.
    public static func template(_ key: String, required: Bool = false, _ summary: String) -> OptionKey {
        OptionKey(OptionSpec(key, .reference("template"), required: required, summary)) { reader, _ in
            guard let (name, node) = reader.string(key) else { return nil }
            return reader.context?.template(named: name, at: node, in: reader)
        }
    }
}
