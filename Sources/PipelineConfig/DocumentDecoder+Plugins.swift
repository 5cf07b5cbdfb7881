import PipelineCore

extension DocumentDecoder {
    static let pluginKeys: [OptionSpec] = [
        OptionSpec("command", .anyOf([.stringList, .string]), required: true, examples: ["[python3, ../plugins/crm_segment.py]"],
                   "the program and its arguments: a program with a '/' is relative to the pipeline file, a bare name is found on PATH"),
        OptionSpec("env", .stringMap, examples: ["{ CRM_URL: \"${env:CRM_URL}\", CRM_TOKEN: \"${env:CRM_TOKEN}\" }"],
                   "the plugin's whole environment (it inherits nothing else, not even PATH)"),
        OptionSpec("secret-env", .stringList, examples: ["[CRM_WEBHOOK]"],
                   "the env: entries whose values are secrets, hidden wherever Pushline shows the plugin's words; names with TOKEN, KEY, SECRET, PASSWORD, AUTH and the like are secret without being listed"),
        OptionSpec("timeout", .duration, default: "10m", examples: ["30s", "1h"],
                   "how long one run of the plugin may take before it is stopped and its step fails"),
    ]

    /// `plugins:`: named child processes that provide step kinds.
    func decodePlugins(_ node: ConfigNode?) -> [PluginDeclaration] {
        guard let entries = sectionEntries(node, section: "plugins", example: "crm-segment: { command: [python3, ../plugins/crm_segment.py] }")
        else { return [] }
        return entries.compactMap(decodePlugin)
    }

    private func decodePlugin(_ entry: ConfigEntry) -> PluginDeclaration? {
        let reader = OptionReader(entry.value, specs: Self.pluginKeys, step: nil, what: "plugin '\(entry.key)'", diagnostics: diagnostics)
        if !DeclaredName.isValid(entry.key) {
            diagnostics.error("plugin name '\(entry.key)' may hold only letters, digits, _ and -", at: entry.keyLocation,
                              hint: "steps use it as their kind: `- \(entry.key.isEmpty ? "my-plugin" : entry.key): { … }`")
            return nil
        }
        guard let commandNode = reader.node("command") else { return nil }
        var words: [String] = []
        if let list = reader.stringList("command") {
            words = list.map(\.value)
        } else if let (text, _) = reader.string("command") {
            words = [text]
        }
        guard let program = words.first, !program.isEmpty else {
            reader.error("plugin '\(entry.key)': 'command' needs a program", at: commandNode, hint: "e.g. `command: [python3, ../plugins/\(entry.key).py]`")
            return nil
        }
        let shown = words.joined(separator: " ")
        guard let resolved = FilePath.executable(program, relativeTo: directory, searchPath: options.environment["PATH"]) else {
            reader.error("plugin '\(entry.key)': \(program.contains("/") ? "no program at '\(program)' (relative to the pipeline file)" : "no program '\(program)' on PATH")",
                         at: commandNode, hint: program.contains("/") ? "the path is relative to the pipeline file's folder, and the file must be executable (chmod +x), or name its interpreter first: [python3, \(program)]"
                            : "install it, or give its path")
            return nil
        }
        // A value `validate` could not resolve (its variable is not set here) is not passed.
        let unresolved = Set(reader.node("env")?.entries?.filter { $0.value.scalar?.isUnresolved == true }.map(\.key) ?? [])
        var environment: [String: String] = [:]
        for (name, value) in reader.stringMap("env") ?? [] where !unresolved.contains(name) {
            environment[name] = value
        }
        let timeout = reader.duration("timeout", in: 1...(7 * 86400)) ?? PluginDeclaration.defaultTimeout
        var declaration = PluginDeclaration(name: entry.key, location: entry.keyLocation, command: [resolved] + words.dropFirst(), shownCommand: shown,
                                            commandLocation: commandNode.location, environment: environment, timeout: timeout)
        declaration.secretNames.formUnion(secretNames(of: entry.key, reader: reader))
        return declaration
    }

    /// The `env:` names whose values are secrets: listed in `secret-env:`, named like a secret's, or holding a hub's
    /// connection string (which a plugin should not need at all: that is warned about).
    private func secretNames(of plugin: String, reader: OptionReader) -> Set<String> {
        let entries = reader.node("env")?.entries ?? []
        let names = entries.map(\.key)
        var secret = Set(names.filter(PluginDeclaration.isSecretName))
        for (name, node) in reader.stringList("secret-env") ?? [] {
            guard names.contains(name) else {
                reader.error("plugin '\(plugin)': secret-env names '\(name)', which env: does not have\(Suggestion.didYouMean(name, in: names))",
                             at: node, hint: names.isEmpty ? "give the plugin its env: first" : "env: has \(names.joined(separator: ", "))")
                continue
            }
            secret.insert(name)
        }
        for entry in entries {
            let text = entry.value.scalar?.text ?? ""
            guard text.range(of: "SharedAccessKey=", options: .caseInsensitive) != nil else { continue }
            secret.insert(entry.key)
            diagnostics.warning("plugin '\(plugin)' is given a hub's connection string in env: \(entry.key); it is hidden as a secret, "
                                + "but a plugin needs none: steps reach hubs, and a plugin runs as your user with its own code",
                                at: entry.keyLocation, hint: "hand the plugin what it needs from the hub as step outputs or rows, not the key")
        }
        return secret
    }
}
