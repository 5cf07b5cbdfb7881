import Engine
import Foundation
import PipelineCore
import RunFlow

/// Deletes dead devices through a journalled run: per hub, a `register` step in `mode: delete` for the installations
/// and one for the registrations of their own (`devices-prune-<hub>` in `runs list`; the same list is the same run,
/// so a cut-off one resumes).
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
            let at = SourceLocation(file: "devices-prune-\(hub.name).yaml", line: 1, column: 1)
            func list(_ kind: DeadDevice.Kind, key: String) -> ConfigNode? {
                let ids = dead.filter { $0.kind == kind }.map(\.id).sorted()
                guard !ids.isEmpty else { return nil }
                return ConfigNode(
                    .sequence(ids.map { RegisterRun.mapping([(key, RegisterRun.scalar($0, at: at))], at: at) }), at: at)
            }
            // Installations, then registrations of their own: one step each, in one journalled run.
            let steps = [
                ("installations", list(.installation, key: "installationId")),
                ("registrations", list(.registration, key: "id")),
            ]
            .compactMap { key, node in node.map { [("mode", RegisterRun.scalar("delete", at: at)), (key, $0)] } }
            let outcome = try await RegisterRun(console: console, store: store).run(
                name: "devices-prune-\(hub.name)", hub: hub, steps: steps, registry: pipeline.registry)
            if outcome.isAlreadyCompleted {
                console.line("these devices were deleted by an earlier run of the same list")
            }
            worst = max(worst, outcome.exitCode)
        }
        if worst != ExitStatus.success { throw ExitStatus.exit(worst) }
    }
}
