import PipelineCore
import RunStore

/// Group commits: the items that finished and the next ones to send are journalled in one transaction, and the
/// next group waits a moment for more slots to free, so a transaction carries several items.
extension BatchRunner {
    /// The longest a free slot waits for others before the next group is marked (`commitGroup`), by default.
    package static let defaultCommitWindow = Duration.milliseconds(2)

    /// Free slots that start the next group's commit at once: half the pool, so one half's requests are in flight
    /// while the other half's outcomes and next marks are committed together.
    var commitGroup: Int { max(1, concurrency / 2) }

    /// Adds to `done` (what finished so far) what finishes until `commitGroup` slots are free or `commitWindow`
    /// passed, whichever comes first. Where each answer started a commit of its own, a fast hub's answers, a fraction
    /// of a millisecond apart, were a transaction each; a slow hub's slots wait at most the window (a few percent of
    /// a 50 ms request).
    func topUp(
        _ done: inout [(BatchItem, BatchState.Finished)],
        from completions: Completions<(BatchItem, BatchState.Finished)>,
        inFlight: Int
    ) async {
        let deadline = ContinuousClock.now + commitWindow
        while concurrency - inFlight + done.count < commitGroup, inFlight > done.count {
            guard ContinuousClock.now < deadline else { return }
            let more = await completions.takeAll(until: deadline)
            if more.isEmpty { return }
            done += more
        }
    }

    /// Journals the pending outcomes and marks `marks` (the items of `group` that are marked together) `sending` in one
    /// transaction, and returns the items of `group` to send. The keys are checked again as they are marked: an item
    /// whose key a run that overlaps this one marked since it was admitted here is held (`BatchState.hold`), not sent.
    /// When the journal fails, nothing of the group was marked, so only the items marked on their own are sent.
    func commit(
        _ group: [(BatchItem, BatchState.Admitted)], marks: [LedgerItem], ledger: any ItemLedger,
        state: inout BatchState
    ) async -> [(BatchItem, BatchState.Admitted)] {
        guard let held = await state.commit(ledger, marking: marks) else {
            return group.filter { _, admitted in
                if case .job(_, _?) = admitted { true } else { false }
            }
        }
        guard !held.isEmpty else { return group }
        var sending: [(BatchItem, BatchState.Admitted)] = []
        for (item, admitted) in group {
            if let prior = held[LedgerKey(step: stepIndex, row: item.row)] {
                await state.hold(item, by: prior)
            } else {
                sending.append((item, admitted))
            }
        }
        return sending
    }
}
