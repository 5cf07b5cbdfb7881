/// An item found by `RunStore.find`, with its run.
package struct FoundItem: Sendable, Equatable {
    /// The run's id.
    package var runId: String
    /// The run's pipeline (absolute path).
    package var pipeline: String
    /// The item.
    package var item: JournalItem

    /// Creates a found item.
    package init(runId: String, pipeline: String, item: JournalItem) {
        self.runId = runId
        self.pipeline = pipeline
        self.item = item
    }
}
