import PipelineCore
import RunStore

/// Reading back the steps a run completed.
extension Journal {
    /// The steps of `run` that completed, with their outputs, in step order.
    package func completedSteps(run: String) async throws(RunStoreError) -> [CompletedStep] {
        try await withConnection { (connection) throws(RunStoreError) -> [CompletedStep] in
            var steps: [CompletedStep] = []
            try connection.query(
                """
                SELECT step, step_id, summary, outputs FROM steps
                WHERE run = (SELECT seq FROM runs WHERE id = ?1) AND outputs IS NOT NULL ORDER BY step
                """, bind: { (statement) throws(RunStoreError) in try statement.bind(1, run) }
            ) { (row) throws(RunStoreError) in
                guard let outputs = CompletedStep.outputs(fromJSON: row.text(3) ?? "") else { return }
                steps.append(
                    CompletedStep(
                        step: row.int(0), stepId: row.text(1) ?? "", summary: row.text(2) ?? "", outputs: outputs))
            }
            return steps
        }
    }
}
