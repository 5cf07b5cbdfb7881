import PipelineCore
import PostgresNIO
import RunStore

/// Steps of the run that completed, with their outputs, in `pushline.steps`.
extension PostgresLedger {
    func completedStep(_ step: Int) async throws(LedgerError) -> CompletedStep? {
        try await ledgerCall {
            try await self.store.withConnection("reading a completed step") { connection in
                let seq = try await self.runSeq(connection)
                var found: CompletedStep?
                let rows = try await connection.query(
                    "SELECT step_id, summary, outputs FROM pushline.steps WHERE run = \(seq) AND step = \(step)",
                    logger: self.store.logger)
                for try await row in rows {
                    let (stepId, summary, outputs) = try row.decode((String, String, String).self)
                    if let decoded = CompletedStep.outputs(fromJSON: outputs) {
                        found = CompletedStep(step: step, stepId: stepId, summary: summary, outputs: decoded)
                    }
                }
                return found
            }
        }
    }

    func recordCompleted(_ completed: CompletedStep) async throws(LedgerError) {
        let (step, stepId, summary, outputs) = (
            completed.step, completed.stepId, completed.summary, completed.outputsJSON
        )
        try await write("recording a completed step") { connection, seq, _ in
            try await connection.query(
                """
                INSERT INTO pushline.steps (run, step, step_id, summary, outputs) VALUES (\(seq), \(step), \(stepId), \(summary), \(outputs))
                ON CONFLICT (run, step) DO UPDATE SET summary = excluded.summary, outputs = excluded.outputs
                """, logger: self.store.logger)
        }
    }
}
