/// Reads a mapping of documented keys, reporting every problem to a `DiagnosticCollector`.
///
/// Creating a reader checks the shape and rejects unknown keys (with "did you mean"); the typed
/// accessors then report wrong types and missing required keys at the value's location. Accessors
/// return nil after reporting, so callers just skip the value and carry on collecting diagnostics.
public struct OptionReader {
    /// The mapping being read (nil when the node was not a mapping).
    public let entries: [ConfigEntry]
    /// The node being read.
    public let node: ConfigNode
    /// Step kind to tag diagnostics with (`[send]`), if any.
    public let step: String?
    /// Where problems go.
    public let diagnostics: DiagnosticCollector
    /// The keys this mapping accepts.
    public let specs: [OptionSpec]
    /// The pipeline's declarations, when the mapping belongs to a step: keys that name a hub or a template read
    /// the declaration itself.
    public internal(set) var context: BuildContext?

    /// Validates that `node` is a mapping whose keys are all in `specs`.
    /// - Parameters:
    ///   - node: the options as the pipeline file wrote them.
    ///   - specs: the keys this mapping accepts.
    ///   - step: the step's kind, stamped on every diagnostic; nil outside a step.
    ///   - what: how to name the mapping in messages, e.g. "sign options" or "hub 'sports'".
    ///   - diagnostics: where problems are reported.
    public init(_ node: ConfigNode, specs: [OptionSpec], step: String?, what: String, diagnostics: DiagnosticCollector)
    {
        self.node = node
        self.step = step
        self.specs = specs
        self.diagnostics = diagnostics
        if let entries = node.entries {
            self.entries = entries
        } else {
            self.entries = []
            if !node.isNull || specs.contains(where: \.isRequired) {
                diagnostics.error(
                    "\(what) must be a mapping of keys, found \(node.kindName)", at: node.location, step: step,
                    hint: "write it as `key: value` lines or `{ key: value }`")
            }
        }
        let known = specs.map(\.key)
        for entry in entries where !known.contains(entry.key) {
            if entry.key == "<<" {
                diagnostics.error(
                    "YAML merge keys ('<<') are not supported", at: entry.keyLocation, step: step,
                    hint: "write the keys out, or anchor the whole value and reuse it with *name")
                continue
            }
            diagnostics.error(
                "unknown key '\(entry.key)'\(Suggestion.didYouMean(entry.key, in: known))", at: entry.keyLocation,
                step: step, hint: "known keys: \(known.joined(separator: ", "))")
        }
        for spec in specs where isGiven(spec.key) {
            let location = entries.first { $0.key == spec.key }?.keyLocation ?? node.location
            if let exclusion = spec.exclusion {
                for other in exclusion.keys where isGiven(other) {
                    diagnostics.error(
                        "give either '\(spec.key)' or '\(other)', not both",
                        at: entries.first { $0.key == other }?.keyLocation ?? location, step: step, hint: exclusion.hint
                    )
                }
            }
            if let requirement = spec.requirement, !isGiven(requirement.key) {
                diagnostics.error(
                    "'\(spec.key)' applies only with '\(requirement.key)': \(requirement.reason)", at: location,
                    step: step,
                    hint: requirement.hint)
            }
        }
        if node.entries != nil {
            for spec in specs where spec.isRequired && !isMisspelled(spec.key) {
                if let entry = entries.first(where: { $0.key == spec.key }) {
                    if entry.value.isNull {
                        diagnostics.error(
                            "'\(spec.key)' has no value", at: entry.keyLocation, step: step,
                            hint: "give `\(spec.key):` a \(spec.typeDocumentation): \(spec.summary)")
                    }
                } else {
                    diagnostics.error(
                        "missing required key '\(spec.key)'", at: node.location, step: step,
                        hint: "add `\(spec.key):` (\(spec.typeDocumentation)): \(spec.summary)")
                }
            }
        }
    }

    /// A reader of `entries`, keys that were checked when an earlier reader of the same mapping was made (a pending
    /// key's value with the values of its references in), reporting to `diagnostics`.
    package init(
        entries: [ConfigEntry], node: ConfigNode, step: String?, diagnostics: DiagnosticCollector, specs: [OptionSpec],
        context: BuildContext?
    ) {
        self.entries = entries
        self.node = node
        self.step = step
        self.diagnostics = diagnostics
        self.specs = specs
        self.context = context
    }

    /// The node for a key, if present, not null and not an unresolved reference.
    ///
    /// An unresolved `${env:}`/`${file:}` was already reported (a warning for `validate`, an error for
    /// `run`), so accessors treat it as absent instead of reporting its placeholder text as wrong.
    public func node(_ key: String) -> ConfigNode? {
        guard let value = entries.first(where: { $0.key == key })?.value, !value.isNull,
            value.scalar?.isUnresolved != true
        else { return nil }
        return value
    }

    /// True when the key is present (even if null).
    public func contains(_ key: String) -> Bool { entries.contains { $0.key == key } }

    /// True when the key's value is, or holds, an unresolved `${env:}`/`${file:}` reference; it was
    /// already reported, so a step skips checks that depend on it instead of reporting it missing.
    public func isUnresolved(_ key: String) -> Bool {
        entries.first { $0.key == key }?.value.containsUnresolved == true
    }

    /// Whether an unknown key was reported as a misspelling of `key` ("unknown key 'audiance'; did you mean
    /// 'audience'?"): a check that `key` is missing would only say the same thing again, about another line.
    public func isMisspelled(_ key: String) -> Bool {
        let known = specs.map(\.key)
        return entries.contains { entry in
            !known.contains(entry.key) && Suggestion.closest(to: entry.key, in: known) == key
        }
    }

    /// Reports an error at a node, tagged with this reader's step.
    public func error(_ message: String, at node: ConfigNode, hint: String? = nil) {
        diagnostics.error(message, at: node.location, step: step, hint: hint)
    }

    /// A string value. Plain scalars like `12345` or `true` are accepted as their text.
    public func string(_ key: String) -> (value: String, node: ConfigNode)? {
        guard let node = node(key) else { return nil }
        guard let scalar = node.scalar else {
            error("'\(key)' must be a string, found \(node.kindName)", at: node)
            return nil
        }
        return (scalar.text, node)
    }

    /// A boolean (`true`/`false`).
    public func bool(_ key: String) -> Bool? {
        guard let node = node(key) else { return nil }
        switch node.scalar.map({ $0.isPlain ? $0.text.lowercased() : "" }) {
        case "true": return true
        case "false": return false
        default:
            error("'\(key)' must be true or false, found \(node.scalar?.quoted ?? node.kindName)", at: node)
            return nil
        }
    }

    /// A whole number within `range`.
    public func integer(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let node = node(key) else { return nil }
        guard let text = node.scalar?.text, let value = Int(text), range.contains(value) else {
            error(
                "'\(key)' must be a whole number from \(range.lowerBound) to \(range.upperBound), found \(node.scalar?.quoted ?? node.kindName)",
                at: node)
            return nil
        }
        return value
    }

    /// A duration in seconds, within `range`.
    public func duration(_ key: String, in range: ClosedRange<Int64>) -> Int64? {
        guard let node = node(key) else { return nil }
        guard let text = node.scalar?.text, let seconds = ConfigDuration.seconds(text) else {
            error(
                "'\(key)' must be a duration such as 90s, 20m, 1h or 1h30m, found \(node.scalar?.quoted ?? node.kindName)",
                at: node)
            return nil
        }
        guard range.contains(seconds) else {
            error(
                "'\(key)' must be between \(ConfigDuration.format(range.lowerBound)) and \(ConfigDuration.format(range.upperBound)), found \(node.scalar?.quoted ?? "")",
                at: node)
            return nil
        }
        return seconds
    }

    /// A mapping of string keys to scalar values, in source order.
    public func stringMap(_ key: String) -> [(key: String, value: String)]? {
        guard let node = node(key) else { return nil }
        guard let entries = node.entries else {
            error(
                "'\(key)' must be a mapping, found \(node.kindName)", at: node,
                hint: "write it as `\(key): { name: value }`")
            return nil
        }
        var result: [(key: String, value: String)] = []
        for entry in entries {
            guard let scalar = entry.value.scalar, !entry.value.isNull else {
                error("'\(key).\(entry.key)' must be a string, found \(entry.value.kindName)", at: entry.value)
                continue
            }
            result.append((entry.key, scalar.text))
        }
        return result
    }

    /// A list of strings; a single string is accepted as a one-item list.
    public func stringList(_ key: String) -> [(value: String, node: ConfigNode)]? {
        guard let node = node(key) else { return nil }
        if let scalar = node.scalar { return [(scalar.text, node)] }
        guard let items = node.items else {
            error("'\(key)' must be a list of strings, found \(node.kindName)", at: node)
            return nil
        }
        var result: [(value: String, node: ConfigNode)] = []
        for item in items {
            guard let scalar = item.scalar, !item.isNull else {
                error("items of '\(key)' must be strings, found \(item.kindName)", at: item)
                continue
            }
            result.append((scalar.text, item))
        }
        return result
    }

    /// One word out of a fixed set.
    public func oneOf(_ key: String, _ words: [String]) -> String? {
        guard let (text, node) = string(key) else { return nil }
        guard words.contains(text) else {
            error(
                "'\(key)' must be one of \(words.joined(separator: ", ")), found \(node.scalar?.quoted ?? "")\(Suggestion.didYouMean(text, in: words))",
                at: node)
            return nil
        }
        return text
    }
}
