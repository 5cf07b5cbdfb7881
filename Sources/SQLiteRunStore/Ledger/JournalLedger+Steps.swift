import PipelineCore
import RunStore
import Synchronization

/// Steps of the run that completed, with their outputs, in the `steps` table beside their ids.
extension JournalLedger {
    /// The step as an earlier attempt of this run completed it; nil when it did not complete.
    package func completedStep(_ step: Int) async throws(LedgerError) -> CompletedStep? {
        try await ledgerCall { () throws(RunStoreError) -> CompletedStep? in
            try await journal.withConnection { (connection) throws(RunStoreError) -> CompletedStep? in
                let seq = try runSeq(connection)
                var found: CompletedStep?
                try connection.query(
                    "SELECT step_id, summary, outputs FROM steps WHERE run = ?1 AND step = ?2 AND outputs IS NOT NULL",
                    bind: { (statement) throws(RunStoreError) in
                        try statement.bind(1, seq)
                        try statement.bind(2, Int64(step))
                    }
                ) { (row) throws(RunStoreError) in
                    guard let outputs = CompletedStep.outputs(fromJSON: row.text(2) ?? "") else { return }
                    found = CompletedStep(
                        step: step, stepId: row.text(0) ?? "", summary: row.text(1) ?? "", outputs: outputs)
                }
                return found
            }
        }
    }

    /// Records that the step completed, with its one line and its outputs, in one transaction.
    package func recordCompleted(_ completed: CompletedStep) async throws(LedgerError) {
        try await ledgerCall { () throws(RunStoreError) in
            try await journal.withConnection { (connection) throws(RunStoreError) in
                let seq = try runSeq(connection)
                try transaction(connection) { () throws(RunStoreError) in
                    _ = try connection.execute(
                        """
                        INSERT INTO steps (run, step, step_id, summary, outputs) VALUES (?1, ?2, ?3, ?4, ?5)
                        ON CONFLICT (run, step) DO UPDATE SET summary = excluded.summary, outputs = excluded.outputs
                        """
                    ) { (statement) throws(RunStoreError) in
                        try statement.bind(1, seq)
                        try statement.bind(2, Int64(completed.step))
                        try statement.bind(3, completed.stepId)
                        try statement.bind(4, completed.summary)
                        try statement.bind(5, completed.outputsJSON)
                    }
                }
                recordedSteps.withLock { _ = $0.insert(completed.step) }
            }
        }
    }
}
