import PipelineCore

/// What a plugin says it is, in its answer to `describe`: the protocol version it speaks, a summary, whether it acts
/// outside the run, the options it takes and the outputs it hands on.
package struct PluginDescription: Sendable, Equatable {
    /// Whether running the plugin changes anything outside the run.
    package enum Effects: String, Sendable, Equatable {
        /// It only reads (an API, a file): a dry run runs it, for real rows.
        case none
        /// It writes, posts or sends: a dry run says it would run, and does not run it.
        case external
    }

    /// The protocol version it speaks (one of the host's).
    package var protocolVersion: Int
    /// One line of what it does.
    package var summary: String
    /// Its effects.
    package var effects: Effects
    /// True when the plugin says a repeat of a `run` with the same `idempotencyKey` does nothing twice (it passes the
    /// key on to what it writes to): a run resumed after it was cut off while the plugin ran runs it again. Otherwise
    /// such a step is of unknown fate and is not run again until `pushline runs resolve` settles it.
    package var repeatSafe: Bool
    /// Its options, as the host checks and documents them.
    package var options: [OptionSpec]
    /// Its outputs; at most one is rows.
    package var outputs: [OutputSpec]
    /// Examples as they appear under `steps:`.
    package var examples: [String]

    /// The option types a plugin may declare, and what the host reads them as.
    package static let optionTypes: [String: OptionSpec.ValueType] = [
        "string": .string, "integer": .integer, "number": .number, "boolean": .boolean, "duration": .duration,
        "list": .stringList, "map": .stringMap,
    ]

    /// Reads a `describe` result, refusing anything the protocol does not allow.
    package init(_ result: PluginValue) throws(PluginProtocolError) {
        guard case .integer(let version)? = result["protocol"], PluginProtocol.versions.contains(version) else {
            throw PluginProtocolError(
                "the describe result must say \"protocol\": one of \(PluginProtocol.versions.map(String.init).joined(separator: ", ")) (this Pushline's versions)",
                hint: "answer {\"protocol\": 1, \"summary\": …}")
        }
        protocolVersion = version
        guard let summary = result["summary"]?.string, !summary.isEmpty else {
            throw PluginProtocolError("the describe result needs a \"summary\" (one line of what the plugin does)")
        }
        self.summary = summary
        guard let effects = result["effects"]?.string.flatMap(Effects.init(rawValue:)) else {
            throw PluginProtocolError(
                "the describe result needs \"effects\": \"none\" or \"external\"",
                hint:
                    "\"none\" when the plugin only reads (a dry run runs it), \"external\" when it writes, posts or sends"
            )
        }
        self.effects = effects
        switch result["repeatSafe"] {
        case nil, .null?: repeatSafe = false
        case .bool(let safe)?: repeatSafe = safe
        default:
            throw PluginProtocolError(
                "\"repeatSafe\" must be true or false",
                hint: "true only when the plugin passes the run's idempotencyKey on, so a repeat does nothing twice")
        }
        options = try Self.options(result["options"])
        outputs = try Self.outputs(result["outputs"])
        examples = if case .array(let items)? = result["examples"] { items.compactMap(\.string) } else { [] }
    }

    private static func options(_ value: PluginValue?) throws(PluginProtocolError) -> [OptionSpec] {
        guard let value, value != .null else { return [] }
        guard case .array(let items) = value else {
            throw PluginProtocolError("\"options\" must be a list of option objects")
        }
        var specs: [OptionSpec] = []
        for (index, item) in items.enumerated() {
            guard let key = item["key"]?.string, Self.isName(key) else {
                throw PluginProtocolError("option \(index + 1) needs a \"key\" of letters, digits, '-' and '_'")
            }
            guard !specs.contains(where: { $0.key == key }) else {
                throw PluginProtocolError("option '\(key)' is declared twice")
            }
            guard let typeName = item["type"]?.string, let type = optionTypes[typeName] else {
                throw PluginProtocolError(
                    "option '\(key)' needs a \"type\": one of \(optionTypes.keys.sorted().joined(separator: ", "))")
            }
            guard let summary = item["summary"]?.string, !summary.isEmpty else {
                throw PluginProtocolError(
                    "option '\(key)' needs a \"summary\" (what it means, for `pushline steps` and editors)")
            }
            let required = item["required"] == .bool(true)
            let examples: [String] =
                if case .array(let list)? = item["examples"] { list.compactMap(\.rowText) } else { [] }
            let spec = OptionSpec(
                key, type, required: required, default: item["default"]?.rowText, examples: examples, summary)
            switch item["secret"] {
            case nil, .null?, .bool(false)?: specs.append(spec)
            case .bool(true)?: specs.append(spec.secret())
            default: throw PluginProtocolError("option '\(key)': \"secret\" must be true or false")
            }
        }
        return specs
    }

    private static func outputs(_ value: PluginValue?) throws(PluginProtocolError) -> [OutputSpec] {
        guard let value, value != .null else { return [] }
        guard case .array(let items) = value else {
            throw PluginProtocolError("\"outputs\" must be a list of output objects")
        }
        var specs: [OutputSpec] = []
        for (index, item) in items.enumerated() {
            guard let name = item["name"]?.string, Self.isName(name) else {
                throw PluginProtocolError("output \(index + 1) needs a \"name\" of letters, digits, '-' and '_'")
            }
            guard !specs.contains(where: { $0.name == name }) else {
                throw PluginProtocolError("output '\(name)' is declared twice")
            }
            guard let type = item["type"]?.string.flatMap(OutputSpec.ValueType.init(rawValue:)) else {
                throw PluginProtocolError(
                    "output '\(name)' needs a \"type\": one of \(OutputSpec.ValueType.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            guard type != .rows || !specs.contains(where: { $0.type == .rows }) else {
                throw PluginProtocolError("output '\(name)': a plugin hands on at most one rows output")
            }
            specs.append(
                OutputSpec(
                    name, type, item["summary"]?.string ?? "",
                    columns: try columns(item["columns"], of: name, type: type)))
        }
        return specs
    }

    /// A rows output's `"columns"`: the fields every row has, so `validate` checks `$(column)` references against them.
    private static func columns(_ value: PluginValue?, of name: String, type: OutputSpec.ValueType)
        throws(PluginProtocolError) -> [String]?
    {
        guard let value, value != .null else { return nil }
        guard type == .rows else { throw PluginProtocolError("output '\(name)': only a rows output has \"columns\"") }
        guard case .array(let items) = value, !items.isEmpty, items.allSatisfy({ $0.string?.isEmpty == false }) else {
            throw PluginProtocolError(
                "output '\(name)': \"columns\" must be a list of the column names every row has",
                hint: "e.g. \"columns\": [\"userId\", \"name\"]")
        }
        let columns = items.compactMap(\.string)
        var seen: Set<String> = []
        if let twice = columns.first(where: { !seen.insert($0.lowercased()).inserted }) {
            throw PluginProtocolError("output '\(name)': column '\(twice)' is declared twice")
        }
        return columns
    }

    private static func isName(_ text: String) -> Bool {
        text.count <= 64 && DeclaredName.isValid(text)
    }
}
