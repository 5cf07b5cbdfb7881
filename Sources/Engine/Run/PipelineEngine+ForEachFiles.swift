import Foundation
import Logging
import PipelineCore
import RunStore

extension PipelineEngine {
    /// The copies of a run's `for-each` files it reads in their place, and the digests of their content by step.
    struct ForEachFiles: Sendable {
        /// File path → the copy to read.
        var copies: [String: String] = [:]
        /// Step position → the digest of what its `for-each` file held, as a spool of it records.
        var digests: [Int: String] = [:]
        /// The run's report when a file could not be kept: nothing ran.
        var failure: RunReport?
    }

    /// A live run with a run store keeps each `for-each` file in its spool (`FileSpooler`): a new run copies the file
    /// as it reads it, and a resume (or another part of a split run) reads that copy back, whatever the file holds
    /// now. A dry run of a resume reads the copy too; any other dry run, or a run without a store, reads the files
    /// themselves and only digests them, so a new run's data is compared with a completed run's as a live run's is.
    func keepForEachFiles(
        _ pipeline: Pipeline, batch: BatchControl, dryRun: Bool, state: RunState, started: Date
    ) async -> ForEachFiles {
        var files = ForEachFiles()
        for built in pipeline.steps {
            guard let source = built.forEachFile else { continue }
            do throws(StepFailure) {
                if !dryRun, let ledger = batch.ledger, ledger.isWritable, let spool = ledger.rowSpool {
                    let kept = try await FileSpooler.copy(
                        source.path, shown: source.shown, step: built.index, split: batch.shard, spool: spool,
                        now: { [clock] in clock.now().timeIntervalSince1970 }, stop: batch.stop, logger: logger)
                    state.addTemporaryFile(kept.copy)
                    files.copies[source.path] = kept.copy
                    files.digests[built.index] = kept.digest
                    if kept.origin == .spooled {
                        logger.info(
                            "for-each file read as the run first read it",
                            metadata: ["step": "\(built.index):\(built.title)", "file": "\(source.shown)"])
                    }
                } else if batch.isResume, let spool = batch.ledger?.rowSpool,
                    let rows = try? await spool.completedSpool(
                        step: built.index, source: FileSpooler.source(split: batch.shard))
                {
                    let copy = try await FileSpooler.copy(of: rows, spool: spool, shown: source.shown)
                    state.addTemporaryFile(copy)
                    files.copies[source.path] = copy
                    files.digests[built.index] = rows.digest
                } else if let digest = FileSpooler.digest(ofFileAt: source.path) {
                    files.digests[built.index] = digest
                }
            } catch {
                var record = StepRecord(
                    index: built.index, step: built.id, location: built.location.description, status: .failed,
                    summary: error.message, hint: error.hint)
                record.code = error.code.rawValue
                var report = RunReport(
                    pipeline: pipeline.document.file, dryRun: dryRun, startedAt: started, finishedAt: clock.now(),
                    status: .failed,
                    steps: pipeline.steps.map {
                        $0.index == built.index
                            ? Self.named(record, $0)
                            : Self.notRun(
                                $0, status: .skipped, summary: "not started: the rows of a step could not be kept")
                    })
                report.name = pipeline.document.name
                files.failure = report
                return files
            }
        }
        return files
    }
}
