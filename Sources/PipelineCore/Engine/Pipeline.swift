/// A validated pipeline, ready to run.
public struct Pipeline: Sendable {
    /// The document it came from.
    public let document: PipelineDocument
    /// The built steps, in order.
    public let steps: [BuiltStep]
}
