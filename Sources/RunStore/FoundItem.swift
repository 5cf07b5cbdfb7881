/// An item found by `RunStore.find`, with its run.
public struct FoundItem: Sendable, Equatable {
    /// The run's id.
    public var runId: String
    /// The run's pipeline (absolute path).
    public var pipeline: String
    /// The item.
    public var item: JournalItem

    /// Creates a found item.
    public init(runId: String, pipeline: String, item: JournalItem) {
        self.runId = runId
        self.pipeline = pipeline
        self.item = item
    }
}
