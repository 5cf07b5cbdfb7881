import PipelineCore

extension Pipeline {
    /// This pipeline with the step at position `index` (from 1) doing `step`'s work instead: its kind, id, outputs,
    /// condition and place kept. `pushline test` gives a plugin step canned results this way.
    package func replacing(stepAt index: Int, with step: any RunnableStep) -> Pipeline {
        Pipeline(
            document: document,
            steps: steps.map { built in
                guard built.index == index else { return built }
                var replaced = built
                replaced.step = step
                return replaced
            })
    }
}
