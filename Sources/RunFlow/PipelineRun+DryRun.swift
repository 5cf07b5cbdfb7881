import Engine
import Foundation
import PipelineCore
import RunStore

/// The dry run: what a live run would do, said first, then every step signed and rendered, nothing sent.
extension PipelineRun {
    /// A dry run: what a live run would do first (from the same decision, said in its first line), then every step
    /// signed and rendered, nothing sent. After a completed run, its sources are read and compared as a live run's
    /// are: the same rows, and it says that a live run would send nothing. Before a resume, it reads the run it would
    /// resume: its completed steps, its spooled rows and its items, never the sources again.
    func dryRun(
        _ pipeline: Pipeline, registry: StepRegistry, engine: PipelineEngine, location: String, console: Console,
        finish: (RunReport, Int32) async throws -> Void
    ) async throws -> Outcome {
        let preview =
            again
            ? .start : await Self.preview(pipeline, registry: registry, store: store, shard: shard, console: console)
        console.errorLine(
            "pushline: dry run of pipeline '\(pipeline.document.name)' (\(pipeline.document.file)): \(preview.plan); "
                + "journal \(RunStores.display(location))")
        var ledger = await RunStores.dryRunLedger(for: pipeline, location: location, environment: console.environment) {
            console.errorLine("pushline: warning: \($0)")
        }
        var resumes = false
        // The store the preview's runs are read from: the completed run's rows to compare, or the run to resume.
        let opened: (any RunStore)?
        switch preview {
        case .newRun:
            opened = try? await RunStores.openExisting(location, environment: console.environment)
        case .resume(let run):
            // What the resume would do: the steps that run completed are read back, its rows come from its spool, and
            // its items are skipped, retried or reported unknown as the resume would; nothing is written.
            opened = try? await RunStores.openExisting(location, environment: console.environment)
            if let opened {
                ledger = ReadOnlyLedger(opened.ledger(for: run, lock: nil))
                resumes = true
            }
        default:
            opened = nil
        }
        var control = BatchControl(ledger: ledger, isResume: resumes, progress: progress, again: again, shard: shard)
        if case .newRun(let completed) = preview, let opened {
            control.sourcesRead = SourceComparison(store: opened, completed: completed).unchanged
        }
        let result = await RunSpan.record(pipeline, runId: nil, resumed: resumes) {
            await engine.run(pipeline, mode: trace.map { .tracedDryRun($0) } ?? .dryRun, batch: control)
        }
        await opened?.close()
        if let reason = result.unchanged {
            console.errorLine("pushline: dry run: a live run would send nothing: \(reason)")
        }
        // A dry run ends with the code its live run would: failed 1, rejected input 2, partial 3.
        let code = RunExit.of(result.status, signal: nil)
        try await finish(result, code)
        return .finished(exitCode: code)
    }
}
