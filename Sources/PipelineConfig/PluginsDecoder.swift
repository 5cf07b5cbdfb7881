import Foundation
import PipelineCore

/// `plugins:`: the step kinds child processes provide, with their commands, environment and secrets.
struct PluginsDecoder {
    /// The file being decoded: where paths resolve, where diagnostics go.
    let document: DocumentDecoder
    private var diagnostics: DiagnosticCollector { document.diagnostics }
    private var directory: String { document.directory }
    private var options: LoaderOptions { document.options }

    /// The keys of one plugin.
    struct PluginKeys: DeclaredOptions {
        /// `command`: a program, or a program and its arguments.
        @Key(
            OptionKey.stringList(
                "command", required: true, examples: ["[python3, ../plugins/crm_segment.py]"],
                "the program and its arguments: a program with a '/' is relative to the pipeline file, a bare name is found on PATH"
            )
            .documented(as: .anyOf([.stringList, .string])))
        var command: [(value: String, node: ConfigNode)]
        /// `env`.
        @Key(
            .stringMap(
                "env", examples: ["{ CRM_URL: \"${env:CRM_URL}\", CRM_TOKEN: \"${env:CRM_TOKEN}\" }"],
                "the plugin's whole environment (it inherits nothing else, not even PATH)"))
        var env: [(key: String, value: String)]
        /// `secret-env`.
        @Key(
            .stringList(
                "secret-env", examples: ["[CRM_WEBHOOK]"],
                "the env: entries whose values are secrets, hidden wherever Pushline shows the plugin's words; names with TOKEN, KEY, SECRET, PASSWORD, AUTH and the like are secret without being listed"
            ))
        var secretEnv: [(value: String, node: ConfigNode)]
        /// `timeout`, in seconds.
        @Key(
            .duration(
                "timeout", in: 1...(7 * 86400), default: PluginDeclaration.defaultTimeout, examples: ["30s", "1h"],
                "how long one run of the plugin may take before it is stopped and its step fails"))
        var timeout: Int64

        init() {}
    }

    static var keys: [OptionSpec] { PluginKeys.specs }

    /// `plugins:`: named child processes that provide step kinds.
    func decode(_ node: ConfigNode?) -> [PluginDeclaration] {
        guard
            let entries = document.sectionEntries(
                node, section: "plugins", example: "crm-segment: { command: [python3, ../plugins/crm_segment.py] }")
        else { return [] }
        return entries.compactMap(decodePlugin)
    }

    private func decodePlugin(_ entry: ConfigEntry) -> PluginDeclaration? {
        let reader = OptionReader(
            entry.value, specs: Self.keys, step: nil, what: "plugin '\(entry.key)'", diagnostics: diagnostics)
        if !DeclaredName.isValid(entry.key) {
            diagnostics.error(
                "plugin name '\(entry.key)' may hold only letters, digits, _ and -", at: entry.keyLocation,
                hint: "steps use it as their kind: `- \(entry.key.isEmpty ? "my-plugin" : entry.key): { … }`")
            return nil
        }
        let keys = PluginKeys(reading: reader)
        guard let commandNode = keys.$command.node else { return nil }
        let words = keys.command.map(\.value)
        guard let program = words.first, !program.isEmpty else {
            reader.error(
                "plugin '\(entry.key)': 'command' needs a program", at: commandNode,
                hint: "e.g. `command: [python3, ../plugins/\(entry.key).py]`")
            return nil
        }
        let shown = words.joined(separator: " ")
        guard
            let resolved = FilePath.executable(program, relativeTo: directory, searchPath: options.environment["PATH"])
        else {
            reader.error(
                "plugin '\(entry.key)': \(program.contains("/") ? "no program at '\(program)' (relative to the pipeline file)" : "no program '\(program)' on PATH")",
                at: commandNode,
                hint: program.contains("/")
                    ? "the path is relative to the pipeline file's folder, and the file must be executable (chmod +x), or name its interpreter first: [python3, \(program)]"
                    : "install it, or give its path")
            return nil
        }
        // A value `validate` could not resolve (its variable is not set here) is not passed.
        let unresolved = Set(keys.$env.node?.entries?.filter { $0.value.scalar?.isUnresolved == true }.map(\.key) ?? [])
        var environment: [String: String] = [:]
        for (name, value) in keys.env where !unresolved.contains(name) {
            environment[name] = value
        }
        let timeout = keys.timeout
        var declaration = PluginDeclaration(
            name: entry.key, location: entry.keyLocation, command: [resolved] + words.dropFirst(), shownCommand: shown,
            commandLocation: commandNode.location, environment: environment, timeout: timeout)
        declaration.secretNames.formUnion(secretNames(of: entry.key, keys: keys, reader: reader))
        return declaration
    }

    /// The `env:` names whose values are secrets: listed in `secret-env:`, named like a secret's, or holding a hub's
    /// connection string (which a plugin should not need at all: that is warned about).
    private func secretNames(of plugin: String, keys: PluginKeys, reader: OptionReader) -> Set<String> {
        let entries = keys.$env.node?.entries ?? []
        let names = entries.map(\.key)
        var secret = Set(names.filter(PluginDeclaration.isSecretName))
        for (name, node) in keys.secretEnv {
            guard names.contains(name) else {
                reader.error(
                    "plugin '\(plugin)': secret-env names '\(name)', which env: does not have\(Suggestion.didYouMean(name, in: names))",
                    at: node,
                    hint: names.isEmpty ? "give the plugin its env: first" : "env: has \(names.joined(separator: ", "))"
                )
                continue
            }
            secret.insert(name)
        }
        for entry in entries {
            let text = entry.value.scalar?.text ?? ""
            guard text.range(of: "SharedAccessKey=", options: .caseInsensitive) != nil else { continue }
            secret.insert(entry.key)
            diagnostics.warning(
                "plugin '\(plugin)' is given a hub's connection string in env: \(entry.key); it is hidden as a secret, "
                    + "but a plugin needs none: steps reach hubs, and a plugin runs as your user with its own code",
                at: entry.keyLocation,
                hint: "hand the plugin what it needs from the hub as step outputs or rows, not the key")
        }
        return secret
    }
}
