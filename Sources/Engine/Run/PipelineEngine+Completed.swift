import Logging
import PipelineCore
import RunStore

/// Steps a resumed run completed before: read back, not run again.
extension PipelineEngine {
    /// What an earlier attempt of this run recorded for a step that acts on a hub and completed, when this run resumes
    /// it: such a step is not run again (a cancel would find nothing left to cancel). Offline steps (`sign`, `render`)
    /// run again: they are cheap, and what they leave for later steps lives in this process only. A dry run of a start
    /// that would resume a run reads the same (through a `ReadOnlyLedger`), so it shows what the resume would do.
    static func completedEarlier(_ built: BuiltStep, batch: BatchControl, logger: Logger) async -> CompletedStep? {
        guard batch.isResume, built.step.recordsCompletion, let ledger = batch.ledger else { return nil }
        do throws(LedgerError) {
            return try await ledger.completedStep(built.index)
        } catch {
            // Running the step again is what a run did before steps were recorded: batch items are still not resent.
            logger.warning(
                "could not read whether the step completed earlier; running it",
                metadata: ["step": "\(built.index)", "reason": "\(error)"])
            return nil
        }
    }

    /// Records a completed step that acted on a hub or read from outside (`recordsCompletion`), with its outputs, for a resume of this run.
    static func recordCompleted(
        _ built: BuiltStep, _ record: StepRecord, _ outputs: StepOutputs, reachedNoDevice: Bool, batch: BatchControl,
        dryRun: Bool, logger: Logger
    ) async {
        guard !dryRun, built.step.recordsCompletion, let ledger = batch.ledger, ledger.isWritable else { return }
        do throws(LedgerError) {
            try await ledger.recordCompleted(
                CompletedStep(
                    step: built.index, stepId: built.title, summary: record.summary, outputs: outputs,
                    reachedNoDevice: reachedNoDevice))
        } catch {
            logger.warning(
                "could not record that the step completed; a resume runs it again", metadata: ["reason": "\(error)"])
        }
    }
}
