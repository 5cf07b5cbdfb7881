import Engine
import Foundation
import PipelineCore
import RunStore
import Synchronization

/// The plan of a live run, made as a dry run from the decision a live start would make now: `run --dry-run` and
/// `check` both come here, so what they say is what the live run would do.
extension PipelineRun {
    /// What `plan` found: the decision, said in words, and the dry run made from it.
    package struct Plan: Sendable {
        /// The decision a live start would make now.
        package var preview: Preview
        /// The decision in words, with what the journal or the sources settled: "a live run would send nothing: …".
        package var verdict: String
        /// The dry run of the steps, as the live run would find them.
        package var report: RunReport
    }

    /// Plans a live run of `pipeline` now: the same decision a live start makes (`preview`), then a dry run made from
    /// it. Before a resume, the dry run reads the run it would resume (its completed steps, spooled rows and items,
    /// never the sources); after a completed run, it reads the sources and compares them as a live start does.
    /// `say` is told the verdict once, as soon as it is known (before any step but the sources runs), so a dry run can
    /// make it its first line.
    package static func plan(
        _ pipeline: Pipeline, engine: PipelineEngine, preview: Preview, location: String, shard: Shard?,
        again: Bool, mode: PipelineEngine.Mode, progress: (any ProgressSink)?, console: Console,
        say: @escaping @Sendable (String) -> Void = { _ in }
    ) async -> Plan {
        let told = Once()
        let verdict = Verdict(preview.plan)
        let tell: @Sendable (String) -> Void = { text in
            guard told.first() else { return }
            verdict.set(text)
            say(text)
        }
        var ledger = await RunStores.dryRunLedger(for: pipeline, location: location, environment: console.environment) {
            console.errorLine("pushline: warning: \($0)")
        }
        var resumes = false
        // The store the preview's runs are read from: the completed run's rows to compare, or the run to resume.
        var opened: (any RunStore)?
        switch preview {
        case .newRun, .resume:
            opened = try? await RunStores.openExisting(location, environment: console.environment)
        default:
            opened = nil
        }
        if case .resume(let run) = preview, let opened {
            // What the resume would do: the steps that run completed are read back, its rows come from its spool, and
            // its items are skipped, retried or reported unknown as the resume would; nothing is written.
            ledger = ReadOnlyLedger(opened.ledger(for: run, lock: nil))
            resumes = true
            if let counts = try? await opened.counts(run: run.id) {
                tell(Self.resumeVerdict(run, counts: counts))
            }
        }
        var control = BatchControl(ledger: ledger, isResume: resumes, progress: progress, again: again, shard: shard)
        if case .newRun(let completed) = preview, let opened {
            let comparison = SourceComparison(store: opened, completed: completed)
            control.sourcesRead = { digests in
                let reason = await comparison.unchanged(digests)
                let when = Timestamp.iso8601(Date(timeIntervalSince1970: completed.endedAt ?? completed.startedAt))
                tell(
                    reason.map { "a live run would send nothing: \($0), completed at \(when)" }
                        ?? "a live run would start a new run: its sources give rows that run \(completed.id) did not send"
                )
                return reason
            }
        }
        if !(control.sourcesRead != nil && pipeline.readsSources) { tell(preview.plan) }
        let report = await RunSpan.record(pipeline, runId: nil, resumed: resumes) {
            await engine.run(pipeline, mode: mode, batch: control)
        }
        await opened?.close()
        // A run refused before its sources were read (its input check) never reached the comparison.
        tell(preview.plan)
        return Plan(preview: preview, verdict: verdict.text, report: report)
    }

    /// "a live run would resume run X (interrupted at …) with the rows it first read: 288 done, 3 of unknown fate (not
    /// sent again), the rest to send".
    static func resumeVerdict(_ run: RunRecord, counts: [StepCount]) -> String {
        func total(_ states: Set<ItemState>) -> Int {
            counts.filter { states.contains($0.state) }.map(\.count).reduce(0, +)
        }
        let done = total([.accepted, .duplicate, .bad])
        let unknown = total([.unknown, .sending])
        let failed = total([.failed, .pending])
        let status = run.status == .running ? "abandoned" : run.status.rawValue
        let when = Timestamp.iso8601(Date(timeIntervalSince1970: run.endedAt ?? run.startedAt))
        var parts = ["\(ItemCounts.grouped(done)) done"]
        if unknown > 0 { parts.append("\(ItemCounts.grouped(unknown)) of unknown fate (not sent again)") }
        if failed > 0 { parts.append("\(ItemCounts.grouped(failed)) failed (sent again when retriable)") }
        parts.append("the rest of its rows to send")
        return "a live run would resume run \(run.id) (\(status) at \(when)) with the rows it first read: "
            + parts.joined(separator: ", ")
    }
}

/// The verdict as it was told (the decision's words, or what the journal or the sources settled), read at the end.
private final class Verdict: Sendable {
    private let value: Mutex<String>
    init(_ text: String) { value = Mutex(text) }
    var text: String { value.withLock { $0 } }
    func set(_ text: String) { value.withLock { $0 = text } }
}
