import Foundation
import PipelineCore
import RunStore

/// The dry run: what a live run would do, said first, then every step signed and rendered, nothing sent.
extension PipelineRun {
    /// A dry run: what a live run would do first (from the same decision, said in its first line), then every step
    /// signed and rendered, nothing sent. After a completed run, its sources are read and compared as a live run's
    /// are: the same rows, and it says that a live run would send nothing.
    func dryRun(_ pipeline: Pipeline, registry: StepRegistry, engine: PipelineEngine, location: String, console: Console,
                finish: (RunReport, Int32) async throws -> Void) async throws -> Outcome {
        let preview = again ? .start : await Self.preview(pipeline, registry: registry, store: store, shard: shard, console: console)
        console.errorLine("pushline: dry run of pipeline '\(pipeline.document.name)' (\(pipeline.document.file)): \(preview.plan); "
                          + "journal \(RunStores.display(location))")
        let ledger = await RunStores.dryRunLedger(for: pipeline, location: location, environment: console.environment) {
            console.errorLine("pushline: warning: \($0)")
        }
        var control = BatchControl(ledger: ledger, progress: progress, again: again, shard: shard)
        let compared: (any RunStore)?
        if case .newRun(let completed) = preview, let opened = try? await RunStores.openExisting(location, environment: console.environment) {
            compared = opened
            control.sourcesRead = SourceComparison(store: opened, completed: completed).unchanged
        } else {
            compared = nil
        }
        let result = await RunSpan.record(pipeline, runId: nil, resumed: false) {
            await engine.run(pipeline, mode: .dryRun, batch: control)
        }
        await compared?.close()
        if let reason = result.unchanged {
            console.errorLine("pushline: dry run: a live run would send nothing: \(reason)")
        }
        // A dry run ends with the code its live run would: failed 1, rejected input 2, partial 3.
        let code = RunExit.of(result.status, signal: nil)
        try await finish(result, code)
        return .finished(exitCode: code)
    }
}
