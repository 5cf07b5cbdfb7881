import Engine
import PipelineCore

extension CaseSession {
    /// `pipeline` with each plugin step `run` mocks (by id, by kind when it is the pipeline's only step of that kind, or
    /// by position) doing the mock's work instead. A mock for a step the pipeline does
    /// not have, for a step that is not a plugin's, or of an output the plugin does not declare is a failure: a mock
    /// is never silently ignored.
    static func mock(_ run: TestRun, in pipeline: Pipeline, plugins: [String]) -> (Pipeline, [TestFailure]) {
        var mocked = pipeline
        var problems: [TestFailure] = []
        for mock in run.mocks {
            func fail(_ message: String, _ detail: String? = nil) {
                problems.append(TestFailure(run: run.label, location: mock.location, message: message, detail: detail))
            }
            let ids = pipeline.steps.compactMap(\.declaredId)
            // By id, by kind when the pipeline has one step of it, or by position from 1.
            let ofKind = pipeline.steps.filter { $0.id == mock.step }
            let found =
                pipeline.steps.first { $0.declaredId == mock.step } ?? (ofKind.count == 1 ? ofKind.first : nil)
                ?? Int(mock.step).flatMap { index in pipeline.steps.first { $0.index == index } }
            guard let step = found else {
                fail(
                    "a mock is given for step '\(mock.step)', which the pipeline does not have"
                        + Suggestion.didYouMean(mock.step, in: ids),
                    ids.isEmpty
                        ? "its steps have no `id:`; give the plugin's step an id"
                        : "step ids: \(ids.joined(separator: ", "))")
                continue
            }
            guard plugins.contains(step.id) else {
                fail("step '\(mock.step)' is a `\(step.id)` step: only a plugin's steps are mocked")
                continue
            }
            let declared = step.outputs.map(\.name)
            let unknown = mock.outputs.map(\.0).filter { !declared.contains($0) }
            guard unknown.isEmpty else {
                fail(
                    "the plugin '\(step.id)' declares no output '\(unknown[0])'"
                        + Suggestion.didYouMean(unknown[0], in: declared),
                    "its outputs: \(declared.joined(separator: ", "))")
                continue
            }
            if !mock.rows.isEmpty, !step.outputs.contains(where: { $0.type == .rows }) {
                fail("the plugin '\(step.id)' hands on no rows, so its mock gives none")
                continue
            }
            mocked = mocked.replacing(
                stepAt: step.index, with: MockedStep(real: step.step, mock: mock, declared: step.outputs))
        }
        return (mocked, problems)
    }
}
