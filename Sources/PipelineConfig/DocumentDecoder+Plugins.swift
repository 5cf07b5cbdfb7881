import Foundation
import PipelineCore

extension DocumentDecoder {
    static let pluginKeys: [OptionSpec] = [
        OptionSpec("command", .anyOf([.stringList, .string]), required: true, examples: ["[python3, ../plugins/crm_segment.py]"],
                   "the program and its arguments: a program with a '/' is relative to the pipeline file, a bare name is found on PATH"),
        OptionSpec("env", .stringMap, examples: ["{ CRM_URL: \"${env:CRM_URL}\", CRM_TOKEN: \"${env:CRM_TOKEN}\" }"],
                   "the plugin's whole environment (it inherits nothing else, not even PATH); values are redacted wherever Pushline shows the plugin's words"),
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
        if entry.key.isEmpty || !entry.key.allSatisfy({ ($0.isLetter || $0.isNumber) && $0.isASCII || $0 == "_" || $0 == "-" }) {
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
        guard let resolved = resolveProgram(program) else {
            reader.error("plugin '\(entry.key)': \(program.contains("/") ? "no program at '\(program)' (relative to the pipeline file)" : "no program '\(program)' on PATH")",
                         at: commandNode, hint: program.contains("/") ? "the path is relative to the pipeline file's folder, and the file must be executable (chmod +x), or name its interpreter first: [python3, \(program)]"
                            : "install it, or give its path")
            return nil
        }
        var environment: [String: String] = [:]
        var unresolved: [String] = []
        for (name, value) in reader.stringMap("env") ?? [] {
            if reader.node("env")?.entries?.first(where: { $0.key == name })?.value.scalar?.isUnresolved == true {
                unresolved.append(name)
            } else {
                environment[name] = value
            }
        }
        let timeout = reader.duration("timeout", in: 1...(7 * 86400)) ?? PluginDeclaration.defaultTimeout
        return PluginDeclaration(name: entry.key, location: entry.keyLocation, command: [resolved] + words.dropFirst(), shownCommand: shown,
                                 commandLocation: commandNode.location, environment: environment, unresolved: unresolved, timeout: timeout)
    }

    /// The program's absolute path: one with a '/' relative to the pipeline's folder, a bare name on `PATH`; nil when
    /// there is no executable file there.
    private func resolveProgram(_ program: String) -> String? {
        let manager = FileManager.default
        if program.contains("/") {
            let path = program.hasPrefix("/") ? program : URL(fileURLWithPath: directory).appendingPathComponent(program).standardizedFileURL.path
            return manager.isExecutableFile(atPath: path) ? path : nil
        }
        let searchPath = options.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in searchPath.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(program)"
            if manager.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
