/// What a resolution (`RunStore.resolve`) changed.
public struct Resolved: Sendable, Equatable {
    /// Items settled.
    public var settled: Int
    /// Items of the run still not accepted (failed, unknown, bad) afterwards.
    public var remaining: Int
    /// True when the run was partial and has nothing left unsettled, so it is now `completed`.
    public var completed: Bool

    /// Creates a result.
    public init(settled: Int, remaining: Int, completed: Bool) {
        self.settled = settled
        self.remaining = remaining
        self.completed = completed
    }
}
