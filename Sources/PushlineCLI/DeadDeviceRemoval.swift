import Foundation
import PipelineCore
import RunFlow

/// Deletes dead installations through a journalled run: per hub, a pipeline of one `register` step in `mode: delete`
/// listing them, built in memory and run as `pushline run` runs pipelines (locked, journalled, resumed by running the
/// same command again after a cut-off: the same list is the same run).
struct DeadDeviceRemoval {
    let console: Console
    /// The run store (`--journal`).
    let store: String?

    func delete(_ devices: [DeadDevice], in pipeline: RunPipeline) async throws {
        guard !devices.isEmpty else {
            console.line("nothing to delete")
            return
        }
        var worst = ExitStatus.success
        for (hubName, dead) in Dictionary(grouping: devices, by: \.hub).sorted(by: { $0.key < $1.key }) {
            guard let hub = pipeline.pipeline.document.hub(hubName) else { continue }
            let built = try build(hub: hub, ids: dead.map(\.id).sorted(), registry: pipeline.registry)
            let engine = PipelineEngine(logger: PushlineLogging.logger(label: "pushline", level: "warning")!, clock: console.clock)
            let outcome: PipelineRun.Outcome
            do {
                outcome = try await PipelineRun(store: store).execute(built, registry: pipeline.registry, engine: engine, console: console) { report, _ in
                    console.out(TextReporter.format(report))
                }
            } catch let error as RunFlowError {
                throw error.commandError(console: console)
            }
            if outcome == .alreadyCompleted { console.line("these installations were deleted by an earlier run of the same list") }
            worst = max(worst, outcome.exitCode)
        }
        if worst != ExitStatus.success { throw ExitStatus.exit(worst) }
    }

    /// `register: { hub, mode: delete, installations: [{ installationId }…] }` for `hub`, named after it.
    private func build(hub: HubDeclaration, ids: [String], registry: StepRegistry) throws -> Pipeline {
        let file = "devices-prune-\(hub.name).yaml"
        let at = SourceLocation(file: file, line: 1, column: 1)
        func scalar(_ text: String) -> ConfigNode { ConfigNode(.scalar(ConfigScalar(text: text)), at: at) }
        func mapping(_ entries: [(String, ConfigNode)]) -> ConfigNode {
            ConfigNode(.mapping(entries.map { ConfigEntry(key: $0.0, keyLocation: at, value: $0.1) }), at: at)
        }
        let devices = ConfigNode(.sequence(ids.map { mapping([("installationId", scalar($0))]) }), at: at)
        let step = StepInvocation(index: 1, kind: "register", location: at,
                                  options: mapping([("hub", scalar(hub.name)), ("mode", scalar("delete")), ("installations", devices)]))
        var document = PipelineDocument(file: file, directory: FileManager.default.currentDirectoryPath, hubs: [hub], steps: [step])
        document.declaredName = "devices-prune-\(hub.name)"
        let diagnostics = DiagnosticCollector()
        guard let pipeline = registry.build(document, diagnostics: diagnostics, loadDataFile: { _, _, _, _ in nil }) else {
            throw CommandFailure("cannot build the deletion: \(diagnostics.diagnostics.map(\.message).joined(separator: "; "))")
        }
        return pipeline
    }
}
