import HubExpressions
import HubWire

/// A loaded pipeline file: its declarations, already checked, and its steps, not yet decoded.
///
/// Produced by `PipelineConfig`; turned into a runnable `Pipeline` by `StepRegistry.build`.
public struct PipelineDocument: Sendable {
    /// The pipeline file path as given by the user.
    public var file: String
    /// The directory relative paths in the file are resolved against.
    public var directory: String
    /// The `description:` text.
    public var description: String?
    /// The top-level `name:`, when the file declares one (see `PipelineName`).
    public var declaredName: String?
    /// The top-level `retention:` in seconds: finished runs of the pipeline older than this are pruned at the end of
    /// each live run (`PrunePolicy` says what is kept regardless). Nil: never pruned by a run.
    public var retention: Double?
    /// Declared hubs, in file order.
    public var hubs: [HubDeclaration]
    /// Declared audiences, in file order.
    public var audiences: [AudienceDeclaration]
    /// Declared templates, in file order.
    public var templates: [TemplateDeclaration]
    /// The steps, in order.
    package var steps: [StepInvocation]
    /// Declared parameters, in file order.
    public var parameters: [ParameterDeclaration] = []
    /// Declared process plugins, in file order.
    package var plugins: [PluginDeclaration] = []
    /// The parameter values the run was given or took by default, by name (what `${param:…}` resolved to).
    public var parameterValues: [String: String] = [:]
    /// The file's absolute, standardized path, as the loader resolved it (runs and locks are named by it).
    public var absolutePath: String?
    /// A SHA-256 of the exact text the loader read, so a run's identity covers what was run, not what the
    /// file holds a moment later.
    public var contentDigest: String?
    /// The environment the file was read with (the process's, with `--env-file`'s values, or `serve`'s settings'):
    /// where a step that connects to something takes what the file leaves to the environment (`PGPASSWORD`).
    /// Never written anywhere.
    package var environment: [String: String] = [:]
    /// True when the file is read for `validate`: a step may then refuse what a run finds out only when it runs (a
    /// table its query needs that is not there yet), which at run time is a failure of that step, so the steps after
    /// it that run whatever happened still run.
    package var isValidation = false

    /// Creates a document.
    package init(
        file: String, directory: String, description: String? = nil, hubs: [HubDeclaration] = [],
        audiences: [AudienceDeclaration] = [], templates: [TemplateDeclaration] = [], steps: [StepInvocation] = []
    ) {
        self.file = file
        self.directory = directory
        self.description = description
        self.hubs = hubs
        self.audiences = audiences
        self.templates = templates
        self.steps = steps
    }

    /// What the run store files the pipeline's runs, locks and declared keys under: its `name:`, else its file name
    /// without the extension.
    public var name: String { declaredName ?? PipelineName.fromFile(absolutePath ?? file) }

    /// The hub declared under `name`.
    public func hub(_ name: String) -> HubDeclaration? { hubs.first { $0.name == name } }
    /// The audience declared under `name`.
    public func audience(_ name: String) -> AudienceDeclaration? { audiences.first { $0.name == name } }
    /// The template declared under `name`.
    public func template(_ name: String) -> TemplateDeclaration? { templates.first { $0.name == name } }
}

/// A `hubs:` entry.
public struct HubDeclaration: Sendable {
    /// The name steps refer to.
    public var name: String
    /// Where the name is declared.
    public var location: SourceLocation
    /// The parsed connection string; nil when it was unresolved or invalid (already reported).
    public var connection: ConnectionString?
    /// The NH hub name (`hub:`); nil when unresolved.
    public var hubName: String?
    /// Optional base-URL override (`endpoint:`), e.g. the local emulator.
    public var endpoint: String?
    /// Most requests per second to this hub from all batch steps and all processes that share a run store
    /// (`rate:`); nil for no budget.
    public var rate: Double?

    /// Creates a declaration.
    public init(
        name: String, location: SourceLocation, connection: ConnectionString?, hubName: String?, endpoint: String?,
        rate: Double? = nil
    ) {
        self.name = name
        self.location = location
        self.connection = connection
        self.hubName = hubName
        self.endpoint = endpoint
        self.rate = rate
    }
}

/// An `audiences:` entry: a named tag expression, parsed and within NH's limits.
public struct AudienceDeclaration: Sendable {
    /// The name steps refer to.
    public var name: String
    /// Where the name is declared.
    public var location: SourceLocation
    /// The parsed expression; nil when it did not parse (already reported).
    public var expression: TagExpression?

    /// Creates a declaration.
    public init(name: String, location: SourceLocation, expression: TagExpression?) {
        self.name = name
        self.location = location
        self.expression = expression
    }
}

/// A `templates:` entry: a device template for one platform.
public struct TemplateDeclaration: Sendable {
    /// The name steps refer to (also the NH template name when registered).
    public var name: String
    /// Where the name is declared.
    public var location: SourceLocation
    /// The device platform the template is for.
    public var platform: PushPlatform
    /// The compiled body; nil when it was missing or did not compile (already reported).
    public var body: CompiledTemplate?
    /// Where the body came from: the template file path, or nil for an inline body.
    public var bodyFile: String?
    /// Headers registered with the template (`apns-push-type`, `X-WNS-Type`, …).
    public var headers: [String: String]
    /// Tags registered with the template.
    public var tags: [String]

    /// Creates a declaration.
    public init(
        name: String, location: SourceLocation, platform: PushPlatform, body: CompiledTemplate?,
        bodyFile: String? = nil, headers: [String: String] = [:], tags: [String] = []
    ) {
        self.name = name
        self.location = location
        self.platform = platform
        self.body = body
        self.bodyFile = bodyFile
        self.headers = headers
        self.tags = tags
    }
}

/// One `- kind: { options }` item of `steps:`, before the step type decodes it.
package struct StepInvocation: Sendable {
    /// 1-based position in `steps:`.
    package var index: Int
    /// The step kind (`sign`, `render`, …).
    package var kind: String
    /// Where the kind is written.
    package var location: SourceLocation
    /// The options node (a mapping, or null for a step without options).
    package var options: ConfigNode
    /// The step's `id:`, which later steps refer to it by; unique in the file.
    package var id: String?
    /// The step's `name:`, shown in progress, reports and the journal instead of its kind.
    package var name: String?
    /// The step's `when:` (default `success`).
    package var condition: StepCondition
    /// Where `when:` is written, when it is.
    package var conditionLocation: SourceLocation?
    /// Keys beside the kind that are neither `id`, `name` nor `when`: the registry reports them (one of them may be
    /// the kind, when the first key is not).
    package var strays: [ConfigEntry]

    /// Creates an invocation.
    package init(
        index: Int, kind: String, location: SourceLocation, options: ConfigNode, id: String? = nil, name: String? = nil,
        condition: StepCondition = .success, strays: [ConfigEntry] = []
    ) {
        self.index = index
        self.kind = kind
        self.location = location
        self.options = options
        self.id = id
        self.name = name
        self.condition = condition
        self.strays = strays
    }

    /// How people see the step: its name, or its kind.
    package var title: String { name ?? kind }
}
