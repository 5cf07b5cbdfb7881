import PipelineCore

/// Paces requests: at most `ceiling` a second when the step sets `rate:`, and adaptively slower
/// when the hub throttles (429): the pace drops by 30 % (at most once every 2 s, however many
/// requests in flight met the throttling), then recovers by a quarter each calm second, back to the
/// ceiling (or to no pacing at all when there is none).
public actor RateGovernor {
    /// The configured cap, requests per second; nil when the step set none.
    public nonisolated let ceiling: Double?
    /// The current pace, or nil for none.
    public private(set) var current: Double?
    private var nextSlot: ContinuousClock.Instant
    private var lastCut: ContinuousClock.Instant?
    private var lastRaise: ContinuousClock.Instant
    private var started: ContinuousClock.Instant
    private var finished = 0
    private let clock = ContinuousClock()

    /// Creates a governor paced at `ceiling` requests per second (nil: unpaced until throttled).
    public init(ceiling: Double?) {
        self.ceiling = ceiling
        current = ceiling
        let now = clock.now
        nextSlot = now
        lastRaise = now
        started = now
    }

    /// Waits for the next slot.
    public func acquire() async {
        raiseIfCalm()
        guard let current, current > 0 else { return }
        let now = clock.now
        let slot = max(nextSlot, now)
        nextSlot = slot + .seconds(1 / current)
        if slot > now { try? await Task.sleep(until: slot, clock: clock) }
    }

    /// One request finished; `throttled` when the hub answered 429 (or 403 with Retry-After) on the way.
    public func finished(throttled: Bool) {
        finished += 1
        guard throttled else { return }
        let now = clock.now
        // Many requests in flight meet the same throttling; cut once per second, not once per request.
        if let lastCut, now - lastCut < .seconds(2) { return }
        let elapsed = Double((now - started).components.seconds) + Double((now - started).components.attoseconds) / 1e18
        let observed = elapsed > 0 ? Double(finished) / elapsed : 1
        current = max(1, (current ?? observed) * 0.7)
        lastCut = now
        lastRaise = now
    }

    private func raiseIfCalm() {
        guard let pace = current else { return }
        let now = clock.now
        guard now - lastRaise >= .seconds(1), lastCut.map({ now - $0 >= .seconds(1) }) ?? true else { return }
        lastRaise = now
        let raised = pace * 1.25
        if let ceiling {
            current = min(raised, ceiling)
        } else {
            // Without a cap, pacing ends once the pace is well past what the hub was taking.
            let elapsed = Double((now - started).components.seconds)
            let observed = elapsed > 0 ? Double(finished) / elapsed : raised
            current = raised > observed * 2 ? nil : raised
        }
    }
}
