import Engine
import Foundation
import PipelineCore
import RunStore

/// The dry run: what a live run would do, said first, then every step signed and rendered, nothing sent.
extension PipelineRun {
    /// A dry run: what a live run would do first (from the same decision, said in its first line as soon as it is
    /// known: after a completed run, once the sources are read and compared as a live run's are), then every step
    /// signed and rendered, nothing sent (`plan`).
    func dryRun(
        _ pipeline: Pipeline, registry: StepRegistry, engine: PipelineEngine, location: String, console: Console,
        finish: (RunReport, Int32) async throws -> Void
    ) async throws -> Outcome {
        let preview =
            again
            ? .start : await Self.preview(pipeline, registry: registry, store: store, shard: shard, console: console)
        let header = "pushline: dry run of pipeline '\(pipeline.document.name)' (\(pipeline.document.file))"
        let journal = "journal \(RunStores.display(location))"
        let plan = await Self.plan(
            pipeline, engine: engine, preview: preview, location: location, shard: shard, again: again,
            mode: trace.map { .tracedDryRun($0) } ?? .dryRun, progress: progress, console: console
        ) { verdict in
            console.errorLine("\(header): \(verdict); \(journal)")
        }
        // A dry run ends with the code its live run would: failed 1, rejected input 2, partial 3.
        let code = RunExit.of(plan.report.status, signal: nil)
        try await finish(plan.report, code)
        return .finished(exitCode: code)
    }
}
