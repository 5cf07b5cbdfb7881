/// A validated pipeline, ready to run.
public struct Pipeline: Sendable {
    /// The document it came from.
    public let document: PipelineDocument
    /// The built steps, in order.
    public let steps: [BuiltStep]

    /// The most requests any one step keeps in flight (steps run one after another), at least 1.
    public var concurrency: Int {
        steps.map(\.step.concurrency).max() ?? 1
    }
}
