import PipelineCore

/// Decodes the top level of a pipeline file; each section has its own extension.
struct DocumentDecoder {
    static let supportedVersion = 1

    /// The keys of a pipeline file.
    struct PipelineKeys: DeclaredOptions {
        /// `version`.
        @Key(DocumentDecoder.version("pipeline file format version; must be 1")) var version: Int?
        /// `name`.
        @Key(DocumentDecoder.pipelineName) var name: String?
        /// `description`.
        @Key(DocumentDecoder.description("what the pipeline is for")) var description: String?
        /// `retention`, in seconds.
        @Key(
            .duration(
                "retention", in: 0...(10 * 366 * 86400), examples: ["30d", "90d"],
                "at the end of each live run, the pipeline's finished runs that ended longer ago than this are removed from "
                    + "the run journal (never a run within its dedupe window, nor the newest run of an input that did not "
                    + "complete, which can still resume). Default: runs are kept until `pushline runs prune`"))
        var retention: Int64?
        /// `hubs`.
        @Key(DocumentDecoder.hubsSection) var hubs: ConfigNode?
        /// `audiences`.
        @Key(
            .node(
                OptionSpec(
                    "audiences", .stringMap,
                    examples: ["{ boston-fans: \"(follows_RedSox || follows_Cardinals) && location_Boston\" }"],
                    "named tag expressions")))
        var audiences: ConfigNode?
        /// `templates`.
        @Key(
            .node(
                OptionSpec(
                    "templates", .namedMappings(TemplatesDecoder.keys),
                    "named device templates: platform, body, headers, tags"))
        ) var templates: ConfigNode?
        /// `parameters`.
        @Key(
            .node(
                OptionSpec(
                    "parameters", .namedMappings(parameterKeys),
                    "named values a run is given (`pushline run --param name=value`) and steps use as ${param:name}")))
        var parameters: ConfigNode?
        /// `plugins`.
        @Key(
            .node(
                OptionSpec(
                    "plugins", .namedMappings(PluginsDecoder.keys),
                    "named step kinds provided by child processes (any language) over the plugin protocol: command, env, timeout"
                )))
        var plugins: ConfigNode?
        /// `steps`.
        @Key(.node(OptionSpec("steps", .steps, required: true, "the steps to run, in order"))) var steps: ConfigNode?

        init() {}
    }

    static var topLevelKeys: [OptionSpec] { PipelineKeys.specs }

    /// `hubs:`, in a pipeline file and a service file.
    static var hubsSection: OptionKey<ConfigNode> {
        .node(
            OptionSpec(
                "hubs", .namedMappings(hubKeys),
                "named hubs: connection (NH connection string), hub (hub name), endpoint (optional base URL)"))
    }

    /// `version:`, which must be the one this Pushline reads.
    static func version(_ summary: String) -> OptionKey<Int> {
        OptionKey(OptionSpec("version", .integer, required: true, summary)) { reader, node in
            guard let text = node.scalar?.text, let version = Int(text) else {
                reader.error(
                    "'version' must be a number, found \(node.scalar?.quoted ?? node.kindName)", at: node,
                    hint: "write `version: 1`")
                return nil
            }
            guard version == supportedVersion else {
                reader.error(
                    "unsupported pipeline version \(version); this Pushline reads version \(supportedVersion)",
                    at: node, hint: "write `version: 1`")
                return nil
            }
            return version
        }
    }

    /// `description:`, which must be text.
    static func description(_ summary: String) -> OptionKey<String> {
        OptionKey(OptionSpec("description", .string, summary)) { reader, node in
            guard let scalar = node.scalar else {
                reader.error("'description' must be text, found \(node.kindName)", at: node)
                return nil
            }
            return scalar.text
        }
    }

    /// `name:`, a valid pipeline name (`PipelineName.problem`).
    static var pipelineName: OptionKey<String> {
        OptionKey(
            OptionSpec(
                "name", .string, examples: ["daily-digest"],
                "who the pipeline is in the run journal, wherever its file lies: its runs, locks and declared idempotency "
                    + "keys are filed under it. Letters, digits, '.', '_' and '-'. Default: the file name without its extension"
            )
        ) { reader, node in
            guard let text = node.scalar?.text else {
                reader.error(
                    "'name' must be text, found \(node.kindName)", at: node, hint: "write `name: daily-digest`")
                return nil
            }
            if let problem = PipelineName.problem(with: text) {
                reader.error(
                    "the pipeline name \(node.scalar?.quoted ?? text) \(problem)", at: node,
                    hint: "write a name such as `name: daily-digest`")
                return nil
            }
            return text
        }
    }

    let file: String
    let directory: String
    let options: LoaderOptions
    let diagnostics: DiagnosticCollector
    /// The file's lines, for positions inside block scalars.
    let sourceLines: [Substring]

    mutating func decode(_ root: ConfigNode) -> PipelineDocument? {
        guard let reader = topLevel(root, what: "a pipeline file", keys: Self.topLevelKeys, body: "steps") else {
            return nil
        }
        let keys = PipelineKeys(reading: reader)
        var document = PipelineDocument(file: file, directory: directory)
        document.environment = options.environment
        document.isValidation = options.purpose == .validate
        document.description = keys.description
        document.declaredName = keys.name
        document.retention = keys.retention.map(Double.init)
        document.hubs = decodeHubs(keys.hubs)
        document.audiences = decodeAudiences(keys.audiences)
        document.templates = TemplatesDecoder(document: self).decode(keys.templates)
        document.parameters = decodeParameters(keys.parameters)
        document.parameterValues = parameterValues(document.parameters, section: keys.parameters)
        document.plugins = PluginsDecoder(document: self).decode(keys.plugins)
        document.steps = decodeSteps(keys.steps, parameters: document.parameters, values: document.parameterValues)
        for entry in reader.entries where entry.key != keys.$steps.key {
            refuseOutputReferences(in: entry.value, section: "'\(entry.key)'")
        }
        return document
    }

    /// An error for each step output reference in `node`: what is not a step's options is read before any step runs.
    func refuseOutputReferences(in node: ConfigNode, section: String) {
        for (scalar, node) in node.deferredScalars {
            let written = scalar.outputReferences.first?.written ?? scalar.sourceText
            diagnostics.error(
                "\(section) cannot use \(written): a step's outputs are known only when the steps run, and this is read before",
                at: node.location,
                hint: "use step outputs in a later step's options; here write a value, ${env:NAME} or ${param:NAME}")
        }
    }

    /// The reader of a file's top level (`what`: "a pipeline file"), once it is a mapping; nil, with an error, when it
    /// is not a mapping (`body` is the key it must have beside `version:`).
    func topLevel(_ root: ConfigNode, what: String, keys: [OptionSpec], body: String) -> OptionReader? {
        guard root.entries != nil else {
            diagnostics.error(
                "\(what) must be a mapping with `version:` and `\(body):`, found \(root.kindName)",
                at: root.location, hint: "start the file with `version: 1`")
            return nil
        }
        return OptionReader(root, specs: keys, step: nil, what: what, diagnostics: diagnostics)
    }

    /// The entries of a section that must be a mapping of names, or nil after reporting.
    func sectionEntries(_ node: ConfigNode?, section: String, example: String) -> [ConfigEntry]? {
        guard let node else { return nil }
        guard let entries = node.entries else {
            diagnostics.error(
                "'\(section)' must be a mapping of names, found \(node.kindName)", at: node.location,
                hint: "write it as:\n  \(section):\n    \(example)")
            return nil
        }
        return entries
    }
}
