import PipelineCore

/// A pace shared by every process that sends to one hub through the same run store: a pause any of them
/// records when the hub throttles, and send budgets (`rate:`) they all draw from.
///
/// NH's quota is per namespace, not per process, so four shards that each keep to `rate: 100` would send 400
/// a second. Each process reserves a few slots at a time from the store (one round trip per block, not per
/// send); slots follow one another at the budget's rate whichever process holds them.
///
/// Times are the store's: the PostgreSQL store reads the database server's clock, so machines whose clocks
/// disagree still agree on a pause. Both methods deal in seconds from now, never in absolute times. A store
/// that cannot be asked answers nil; the caller then paces by itself (the run's journal writes fail on the
/// same outage and stop the run).
package protocol HubPace: Sendable {
    /// Reserves `count` consecutive slots of `budget`, none before a pause recorded for `hub`, and returns the
    /// seconds from now until the first one (0 when it is now); the others follow `1 / budget.rate` apart. With
    /// no budget, nothing is reserved and the answer is what remains of `hub`'s pause.
    func reserve(hub: String, budget: PaceBudget?, count: Int) async -> Double?
    /// Records that `hub` throttled: every process waits `seconds` from now before its next request, unless a
    /// longer pause is already recorded.
    func pause(hub: String, seconds: Double) async
}

/// A send budget in a `HubPace`: at most `rate` slots a second under `key`, shared by every process that uses it.
package struct PaceBudget: Sendable, Hashable {
    /// What the budget is for: a hub's `rate:`, or one step's `rate:` across the parts of a sharded run.
    package var key: String
    /// Slots per second.
    package var rate: Double

    /// Creates a budget.
    package init(key: String, rate: Double) {
        self.key = key
        self.rate = rate
    }
}
