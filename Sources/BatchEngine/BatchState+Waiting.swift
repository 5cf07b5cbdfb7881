import Foundation
import PipelineCore
import RunStore

/// Items whose idempotency key another run marked `sending` while that run still goes: they wait for it to settle
/// the key, then are admitted again, to come to a duplicate (its send was accepted) or be sent here (it failed),
/// rather than be reported of unknown fate while the other run is still sending them.
extension BatchState {
    /// An item waiting for another run's send of the same notification.
    struct WaitingItem {
        var item: BatchItem
        /// When to ask the journal again.
        var due: ContinuousClock.Instant
    }

    /// Settles `item`, whose key `prior` holds, unless another run that still goes marked it `sending` less than
    /// `BatchRunner.inFlightWait` ago: then it waits, and is asked about again shortly.
    mutating func hold(_ item: BatchItem, by prior: PriorSend) async {
        let now = runner.clock.now().timeIntervalSince1970
        let age = max(0, now - prior.at)
        if !prior.sameRun, prior.state == .sending, !runner.isDryRun, age < BatchRunner.inFlightWait,
            await isLive(prior.runId)
        {
            // Sooner while the other run's mark is fresh (its outcome is journalled within a tenth of a second of the
            // answer), up to a second apart for a slow request.
            let delay = min(1.0, max(0.05, age / 4))
            waiting.append(WaitingItem(item: item, due: .now + .milliseconds(Int(delay * 1000))))
            return
        }
        settleHeld(item, by: prior)
    }

    /// A waiting item whose time to ask again has come, taken off the list.
    mutating func takeDueWaiting() -> BatchItem? {
        guard !waiting.isEmpty else { return nil }
        let now = ContinuousClock.now
        guard let index = waiting.firstIndex(where: { $0.due <= now }) else { return nil }
        return waiting.remove(at: index).item
    }

    /// Sleeps until the first waiting item is due (at most a second), for when there is nothing else to do.
    func sleepUntilWaitingDue() async {
        guard let due = waiting.map(\.due).min() else { return }
        let wait = min(due - .now, .seconds(1))
        if wait > .zero { try? await Task.sleep(for: wait) }
    }

    /// Whether the run `id` still holds its lock, asked at most once a second per run.
    private mutating func isLive(_ id: String) async -> Bool {
        guard let ask = runner.control.runIsLive else { return false }
        if let known = liveRuns[id], ContinuousClock.now - known.at < .seconds(1) { return known.live }
        let live = await ask(id)
        liveRuns[id] = (live, .now)
        return live
    }
}
