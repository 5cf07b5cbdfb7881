import PipelineCore

/// The next items of a batch's source, read a few dozen at a time, so the journal is asked about their keys together
/// (`BatchState+Prefetch`) rather than once per row. A source that fails after some items gives those first, then its
/// failure.
struct ItemLookahead {
    private var items: [BatchItem] = []
    private var position = 0
    private var exhausted = false
    /// What the source threw, once the items read before it are taken.
    private(set) var failure: StepFailure?

    /// Whether every item read so far was taken.
    var isEmpty: Bool { position == items.count }

    /// Reads up to `count` items (fewer at the end of the source or at a failure) in place of the taken ones; returns them.
    mutating func fill(_ next: () throws(StepFailure) -> BatchItem?, count: Int) -> ArraySlice<BatchItem> {
        items.removeAll(keepingCapacity: true)
        position = 0
        while items.count < count, !exhausted, failure == nil {
            do throws(StepFailure) {
                if let item = try next() { items.append(item) } else { exhausted = true }
            } catch {
                failure = error
            }
        }
        return items[...]
    }

    /// The next item read, or nil when all are taken.
    mutating func take() -> BatchItem? {
        guard position < items.count else { return nil }
        defer { position += 1 }
        return items[position]
    }
}
