import PipelineCore

/// Where a batch run records each item, so a run that is cut off can resume without sending twice.
///
/// `PipelineCore` states what it needs; a `RunStore` (the SQLite journal, or a shared store) implements it.
/// Methods are async because a shared store answers over the network. Every one is durable when it
/// returns: an item is marked `sending` before its request is written, and its outcome is recorded
/// before it counts as done.
package protocol ItemLedger: AnyObject, Sendable {
    /// What an earlier attempt of this run recorded for the item; nil when the run never reached it.
    func entry(_ key: LedgerKey) async throws(LedgerError) -> LedgerEntry?
    /// Marks items `sending` (and counts an attempt) in one transaction.
    func markSending(_ items: [LedgerItem]) async throws(LedgerError)
    /// Marks items `sending` as `markSending(_:)` does, checking first, in the same transaction and in order, each
    /// item whose `claimsKey` is set: when a run holds its idempotency key under `claim` (another run's item, this
    /// run's other item, or an earlier item of `items`), that item is not marked and the holder comes back under its
    /// key. Of two processes claiming one key at once, one marks it and the other is told: the check at send time that
    /// keeps two overlapping runs from both sending a notification.
    func markSending(_ items: [LedgerItem], claim: KeyClaim) async throws(LedgerError) -> [LedgerKey: PriorSend]
    /// Records final outcomes (`accepted`, `failed`, `unknown`) and ranges of rows skipped as already sent, in one
    /// transaction; an item never marked `sending` (a malformed row) is inserted with no attempt. A skip range
    /// replaces the run's ranges of the step that it overlaps (the range, written shorter before).
    func record(_ outcomes: [LedgerOutcome], skips: [SkipRange]) async throws(LedgerError)
    /// Records `outcomes` and `skips` as `record(_:skips:)` does, then marks `items` as `markSending(_:claim:)` does,
    /// in one transaction: a batch's group commit, where the items that finished and the next ones to send are
    /// journalled together (one commit, and one write of the pages they share, for a group of items).
    func commit(
        recording outcomes: [LedgerOutcome], skips: [SkipRange], marking items: [LedgerItem], claim: KeyClaim
    ) async throws(LedgerError) -> [LedgerKey: PriorSend]
    /// Marks one item `sending` and records the id of what it is creating, in one transaction, so the id
    /// an earlier attempt obtained is never missing from the journal while the item is `sending` again.
    func markSending(_ item: LedgerItem, creating id: String) async throws(LedgerError)
    /// Records the id of what a `sending` item is creating (a registration id the hub handed out), so a
    /// resumed run upserts that same resource instead of creating a second one. Durable when it returns.
    func assignId(_ id: String, to key: LedgerKey) async throws(LedgerError)
    /// The newest item of any run of the same pipeline (this run's other items included) with this
    /// idempotency key that was accepted, is being sent, or was left of unknown fate, recorded at or after
    /// `since` (epoch seconds); nil when there is none. The item at `excluding` (the one asking) is never
    /// its own prior.
    func priorSend(key: String, since: Double, excluding: LedgerKey) async throws(LedgerError) -> PriorSend?
    /// `priorSend` for several items at once, each asking with its key from its own place; the answers by the asking
    /// item (none for an item without a prior). A batch asks for its next rows together: one read, where row by row
    /// is one each.
    func priorSends(_ asks: [PriorAsk], since: Double) async throws(LedgerError) -> [LedgerKey: PriorSend]
    /// False for a ledger that can only be read (a dry run's view of the journal): nothing is written.
    var isWritable: Bool { get }
    /// The step at `step` as an earlier attempt of this run completed it; nil when it did not.
    func completedStep(_ step: Int) async throws(LedgerError) -> CompletedStep?
    /// Records that a step completed, with what it handed on.
    func recordCompleted(_ step: CompletedStep) async throws(LedgerError)
    /// Where rows a step produced are kept for later steps; nil for a ledger that keeps none (a dry run's view, tests').
    var rowSpool: (any RowSpool)? { get }
    /// A uniform sample (`NotificationSample.picks`) of at most `size` of the notification ids the hub gave the items of
    /// the step at `step` in this run, in row order, with how many there are; nil for a ledger that keeps no items.
    func notificationIds(step: Int, sample size: Int) async throws(LedgerError) -> NotificationSample?
}

extension ItemLedger {
    /// A ledger that keeps no steps (tests' in-memory ledgers) has none completed.
    package func completedStep(_ step: Int) async throws(LedgerError) -> CompletedStep? { nil }

    /// A ledger that keeps no steps records none.
    package func recordCompleted(_ step: CompletedStep) async throws(LedgerError) {}
    /// A ledger that keeps no steps keeps no rows.
    package var rowSpool: (any RowSpool)? { nil }
    /// A ledger that keeps no items to read back has no ids to give.
    package func notificationIds(step: Int, sample size: Int) async throws(LedgerError) -> NotificationSample? { nil }

    /// One `priorSend` after another: for stores where that is as cheap as one read.
    package func priorSends(_ asks: [PriorAsk], since: Double) async throws(LedgerError) -> [LedgerKey: PriorSend] {
        var found: [LedgerKey: PriorSend] = [:]
        for ask in asks {
            if let prior = try await priorSend(key: ask.key, since: since, excluding: ask.item) {
                found[ask.item] = prior
            }
        }
        return found
    }

    /// Records final outcomes, no skip ranges.
    package func record(_ outcomes: [LedgerOutcome]) async throws(LedgerError) {
        try await record(outcomes, skips: [])
    }

    /// For a ledger only one process writes (tests' in-memory ledgers): the outcomes, then the marks, in turn.
    package func commit(
        recording outcomes: [LedgerOutcome], skips: [SkipRange], marking items: [LedgerItem], claim: KeyClaim
    ) async throws(LedgerError) -> [LedgerKey: PriorSend] {
        if !outcomes.isEmpty || !skips.isEmpty { try await record(outcomes, skips: skips) }
        return try await markSending(items, claim: claim)
    }

    /// For a ledger only one process writes (tests' in-memory ledgers): the checks and the marks in turn. A store that
    /// several processes share implements it in one transaction.
    package func markSending(_ items: [LedgerItem], claim: KeyClaim) async throws(LedgerError) -> [LedgerKey: PriorSend]
    {
        var priors: [LedgerKey: PriorSend] = [:]
        for item in items where item.claimsKey {
            guard let key = item.idempotencyKey else { continue }
            priors[item.key] = try await priorSend(key: key, since: claim.since, excluding: item.key)
        }
        let (marked, held) = claim.partition(items, run: "", now: claim.since) { item, _ in priors[item.key] }
        try await markSending(marked)
        return held
    }
}
