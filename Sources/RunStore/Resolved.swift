/// What a resolution (`RunStore.resolve`) changed.
package struct Resolved: Sendable, Equatable {
    /// Items settled.
    package var settled: Int
    /// Items of the run still not accepted (failed, unknown, bad) afterwards.
    package var remaining: Int
    /// True when the run was partial and has nothing left unsettled, so it is now `completed`.
    package var completed: Bool

    /// Creates a result.
    package init(settled: Int, remaining: Int, completed: Bool) {
        self.settled = settled
        self.remaining = remaining
        self.completed = completed
    }
}
