/// A request the host writes to a plugin's stdin, one JSON line: `{"id": n, "method": "…", "params": {…}}`.
package enum PluginRequest: Sendable, Equatable {
    /// What are you? Sent first in every session.
    case describe(id: Int)
    /// Are these options right? `options` as the pipeline wrote them (a value that comes from an earlier step is its
    /// reference, written out, e.g. `"${steps.users.count}"`).
    case check(id: Int, options: PluginValue)
    /// Do the work. `options` with every value in.
    case run(id: Int, options: PluginValue, context: RunContext)
    /// A method the plugin may not know (`pushline plugin check` sends one): it must answer with an error.
    case other(id: Int, method: String)

    /// What a run is told besides its options.
    package struct RunContext: Sendable, Equatable {
        /// True for a dry run: the plugin has no external effects (else it is not run) and must write nothing anywhere.
        package var dryRun: Bool
        /// The pipeline's name.
        package var pipeline: String
        /// The step's 1-based position in `steps:`, its `id:` and its `name:` when it has them.
        package var step: Int
        package var stepId: String?
        package var stepName: String?
        /// The journal's id of the run (a live run with a journal), the same in every attempt of it.
        package var run: String?
        /// Which attempt of the run this is: 1, then 2 for its first resumption, and so on.
        package var attempt: Int?
        /// A key for this step of this run, the same in every attempt: a plugin with external effects passes it on
        /// (an `Idempotency-Key` header, a unique column) so that a repeat after a cut-off run does nothing twice.
        package var idempotencyKey: String?

        /// Creates a context.
        package init(
            dryRun: Bool, pipeline: String, step: Int, stepId: String?, stepName: String? = nil, run: String? = nil,
            attempt: Int? = nil, idempotencyKey: String? = nil
        ) {
            self.dryRun = dryRun
            self.pipeline = pipeline
            self.step = step
            self.stepId = stepId
            self.stepName = stepName
            self.run = run
            self.attempt = attempt
            self.idempotencyKey = idempotencyKey
        }
    }

    /// The request's id.
    package var id: Int {
        switch self {
        case .describe(let id), .check(let id, _), .run(let id, _, _), .other(let id, _): id
        }
    }

    /// The method's name.
    package var method: String {
        switch self {
        case .describe: "describe"
        case .check: "check"
        case .run: "run"
        case .other(_, let method): method
        }
    }

    /// The request as one line (without its newline).
    package var line: String {
        let params: PluginValue =
            switch self {
            case .describe: .object(["protocol": .array(PluginProtocol.versions.map(PluginValue.integer))])
            case .other: .object([:])
            case .check(_, let options): .object(["options": options])
            case .run(_, let options, let context):
                // `run`, `attempt` and `idempotencyKey` are optional fields of protocol 1 (a plugin that does not know them
                // ignores them): null in a dry run or a run without a journal.
                .object([
                    "options": options, "dryRun": .bool(context.dryRun), "pipeline": .string(context.pipeline),
                    "step": .integer(context.step),
                    "stepId": context.stepId.map(PluginValue.string) ?? .null,
                    "stepName": context.stepName.map(PluginValue.string) ?? .null,
                    "run": context.run.map(PluginValue.string) ?? .null,
                    "attempt": context.attempt.map(PluginValue.integer) ?? .null,
                    "idempotencyKey": context.idempotencyKey.map(PluginValue.string) ?? .null,
                ])
            }
        return PluginValue.object(["id": .integer(id), "method": .string(method), "params": params]).json
    }
}

/// The protocol's fixed numbers.
package enum PluginProtocol {
    /// The versions this host speaks.
    package static let versions = [1]
    /// The longest line either side may write, in bytes (without the newline): 1 MiB.
    package static let maxLineBytes = 1 << 20
    /// The most stderr lines a failure quotes.
    package static let quotedStderrLines = 10
}
