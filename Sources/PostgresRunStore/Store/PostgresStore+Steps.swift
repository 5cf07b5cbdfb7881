import PipelineCore
import PostgresNIO
import RunStore

/// Reading back the steps a run completed.
extension PostgresStore {
    package func completedSteps(run: String) async throws(RunStoreError) -> [CompletedStep] {
        try await withConnection("reading completed steps") { connection in
            var steps: [CompletedStep] = []
            let rows = try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT step, step_id, summary, outputs FROM pushline.steps
                        WHERE run = (SELECT seq FROM pushline.runs WHERE id = $1) ORDER BY step
                        """, binds: PostgresRows.binds(run)), logger: self.logger)
            for try await row in rows {
                let (step, stepId, summary, outputs) = try row.decode((Int, String, String, String).self)
                guard let decoded = CompletedStep.outputs(fromJSON: outputs) else { continue }
                steps.append(CompletedStep(step: step, stepId: stepId, summary: summary, outputs: decoded))
            }
            return steps
        }
    }
}
