import Foundation
import PipelineCore
import RunFlow

/// Deletes dead installations through a journalled run: per hub, a `register` step in `mode: delete` listing them
/// (`devices-prune-<hub>` in `runs list`; the same list is the same run, so a cut-off one resumes).
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
            let ids = dead.map(\.id).sorted().map { RegisterRun.mapping([("installationId", RegisterRun.scalar($0, at: at))], at: at) }
            let outcome = try await RegisterRun(console: console, store: store).run(
                name: "devices-prune-\(hub.name)", hub: hub,
                options: [("mode", RegisterRun.scalar("delete", at: at)), ("installations", ConfigNode(.sequence(ids), at: at))],
                registry: pipeline.registry)
            if outcome == .alreadyCompleted { console.line("these installations were deleted by an earlier run of the same list") }
            worst = max(worst, outcome.exitCode)
        }
        if worst != ExitStatus.success { throw ExitStatus.exit(worst) }
    }
}
