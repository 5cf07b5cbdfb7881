import Engine
import Foundation
import PipelineCore
import PushlineLogging
import RunFlow

/// A `register` step built in memory and run as `pushline run` runs pipelines: locked, journalled, listed by
/// `runs list` under its name, and resumed by running the same command again after a cut-off (the same options
/// and the same input files are the same run). The commands that change a run's devices afterwards use it
/// (`devices prune --delete`, `fcmv1 move --apply`).
struct RegisterRun {
    let console: Console
    /// The run store (`--journal`).
    let store: String?

    /// Runs `register: { hub: <hub>, <options> }` as the pipeline `name`; prints its report and returns its outcome.
    func run(name: String, hub: HubDeclaration, options: [(String, ConfigNode)], registry: StepRegistry) async throws
        -> PipelineRun.Outcome
    {
        try await run(name: name, hub: hub, steps: [options], registry: registry)
    }

    /// Runs one `register` step per entry of `steps`, in order, as the pipeline `name`.
    func run(name: String, hub: HubDeclaration, steps: [[(String, ConfigNode)]], registry: StepRegistry) async throws
        -> PipelineRun.Outcome
    {
        let built = try build(name: name, hub: hub, steps: steps, registry: registry)
        let engine = PipelineEngine(
            logger: PushlineLogging.logger(label: "pushline", level: "warning")!, clock: console.clock)
        do {
            var run = PipelineRun(store: store)
            run.trust = try console.hubTrust()
            return try await run.execute(built, registry: registry, engine: engine, console: console) { report, _ in
                console.out(TextReporter.format(report))
            }
        } catch let error as RunFlowError {
            throw error.commandError(console: console)
        }
    }

    /// A scalar node for an option value.
    static func scalar(_ text: String, at location: SourceLocation) -> ConfigNode {
        ConfigNode(.scalar(ConfigScalar(text: text)), at: location)
    }

    /// A mapping node.
    static func mapping(_ entries: [(String, ConfigNode)], at location: SourceLocation) -> ConfigNode {
        ConfigNode(.mapping(entries.map { ConfigEntry(key: $0.0, keyLocation: location, value: $0.1) }), at: location)
    }

    private func build(name: String, hub: HubDeclaration, steps: [[(String, ConfigNode)]], registry: StepRegistry)
        throws -> Pipeline
    {
        let file = "\(name).yaml"
        let at = SourceLocation(file: file, line: 1, column: 1)
        let invocations = steps.enumerated().map { offset, options in
            StepInvocation(
                index: offset + 1, kind: "register", location: at,
                options: Self.mapping([("hub", Self.scalar(hub.name, at: at))] + options, at: at))
        }
        var document = PipelineDocument(
            file: file, directory: FileManager.default.currentDirectoryPath, hubs: [hub], steps: invocations)
        document.declaredName = name
        let diagnostics = DiagnosticCollector()
        guard let pipeline = registry.build(document, diagnostics: diagnostics, loadDataFile: { _, _, _, _ in nil })
        else {
            throw CommandFailure(
                "cannot build the \(name) run: \(diagnostics.diagnostics.map(\.message).joined(separator: "; "))")
        }
        return pipeline
    }
}
