import PipelineCore

/// A validated pipeline, ready to run.
package struct Pipeline: Sendable {
    /// The document it came from.
    package let document: PipelineDocument
    /// The built steps, in order.
    package let steps: [BuiltStep]

    /// The most requests any one step keeps in flight (steps run one after another), at least 1.
    package var concurrency: Int {
        steps.map(\.step.concurrency).max() ?? 1
    }

    /// True when a step reads its rows from a source (a query, a rows plugin, a `for-each` file): a new run's data is
    /// then known only once it has read them (its identity holds the file's path, not its content).
    package var readsSources: Bool {
        steps.contains(where: \.readsData)
    }
}
