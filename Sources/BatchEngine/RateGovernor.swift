import PipelineCore
import RunStore
import Synchronization

/// Paces a batch's requests and holds them back when the hub throttles.
///
/// - At most `ceiling` a second when the step sets `rate:` and paces by itself.
/// - Adaptively slower when the hub throttles: the pace drops by 30 % (at most once every 2 s, however many
///   requests in flight met the throttling), then recovers by a quarter each calm second, back to the ceiling
///   (or to no pacing at all when there is none).
/// - Paused when the hub throttles: the transport reports it (`ThrottleObserver`) with the wait the hub asked
///   for, and no new request starts until it is over.
/// - With `SharedPacing`, the pause and the budgets (`rate:` of the hub, or of a step across a sharded run's
///   parts) live in the run store, so every process sending to the hub keeps to them together. Budget slots
///   are reserved a quarter second's worth at a time: one store round trip per block, not per request.
package actor RateGovernor: ThrottleObserver {
    /// The configured cap this process keeps to by itself, requests per second; nil for none.
    package nonisolated let ceiling: Double?
    /// The current pace, or nil for none.
    package private(set) var current: Double?
    private nonisolated let pacing: Atomic<Bool>
    private nonisolated let hasBudgets: Bool
    private let shared: SharedPacing?
    private var nextSlot: ContinuousClock.Instant
    private var lastCut: ContinuousClock.Instant?
    private var lastRaise: ContinuousClock.Instant
    private var started: ContinuousClock.Instant
    private var finished = 0
    /// No request starts before this: the hub throttled (here, or in another process sharing the store).
    private var pausedUntil: ContinuousClock.Instant
    /// Reserved budget slots not yet used, by budget key.
    private var blocks: [String: Block] = [:]
    /// Reservations under way, so concurrent callers wait for one instead of each reserving.
    private var refills: [String: Task<Block, Never>] = [:]
    /// When the store's pause was last read (only without budgets: a reservation reads it anyway).
    private var lastPoll: ContinuousClock.Instant?
    private let clock = ContinuousClock()
    /// The time source for slots and pauses; waits still sleep on `clock`. Tests stop it to make calls simultaneous.
    private let now: @Sendable () -> ContinuousClock.Instant

    /// How often a process without budgets asks the store whether another one met throttling.
    static let pollEvery: Duration = .milliseconds(250)
    /// Budget slots reserved at once: a quarter second's worth, between 1 and 64.
    static func blockSize(_ rate: Double) -> Int { max(1, min(64, Int(rate / 4))) }

    /// Slots reserved from a shared budget: the next one is at `next`, then every `interval`.
    struct Block: Sendable {
        var next: ContinuousClock.Instant
        var left: Int
        let interval: Duration
    }

    /// Creates a governor paced at `ceiling` requests per second (nil: unpaced until throttled), sharing
    /// pauses and budgets through `shared` when given.
    package init(
        ceiling: Double?, shared: SharedPacing? = nil, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.ceiling = ceiling
        self.now = now
        self.shared = shared
        let budgets = !(shared?.budgets.isEmpty ?? true)
        hasBudgets = budgets
        pacing = Atomic(ceiling != nil || budgets)
        current = ceiling
        let start = now()
        nextSlot = start
        lastRaise = start
        started = start
        pausedUntil = start
    }

    /// True while requests are spaced out (a ceiling, a shared budget, or a pace cut by throttling): the
    /// runner then admits items one at a time. Read without a hop to the actor.
    package nonisolated var isPacing: Bool { pacing.load(ordering: .relaxed) }

    /// Waits for the next slot.
    package func acquire() async {
        raiseIfCalm()
        var at = pausedUntil
        if let shared { at = max(at, await sharedSlot(shared)) }
        if let current, current > 0 {
            let slot = max(nextSlot, at, now())
            nextSlot = slot + .seconds(1 / current)
            at = slot
        }
        // A throttling met while this caller waited extends its wait too.
        while at > clock.now {
            try? await Task.sleep(until: at, clock: clock)
            if Task.isCancelled { return }
            at = max(at, pausedUntil)
        }
    }

    /// One request finished; `throttled` when the hub answered 429 (or 403 with Retry-After) on the way.
    package func finished(throttled: Bool) {
        finished += 1
        guard throttled else { return }
        let now = self.now()
        // Many requests in flight meet the same throttling; cut once per second, not once per request.
        if let lastCut, now - lastCut < .seconds(2) { return }
        let elapsed = Double((now - started).components.seconds) + Double((now - started).components.attoseconds) / 1e18
        let observed = elapsed > 0 ? Double(finished) / elapsed : 1
        current = max(1, (current ?? observed) * 0.7)
        pacing.store(true, ordering: .relaxed)
        lastCut = now
        lastRaise = now
    }

    /// The hub throttled and asked for `seconds`: no request starts before they pass, here and, through the
    /// store, in every process sending to the hub.
    package func throttled(for seconds: Double) async {
        guard seconds > 0, seconds.isFinite else { return }
        let until = now() + .seconds(seconds)
        // Requests in flight meet the same throttling together; one pause records them all.
        guard until > pausedUntil + .milliseconds(100) else { return }
        pausedUntil = until
        // Slots reserved before the pause would all fall due the moment it ends; new ones follow it.
        blocks = [:]
        if let shared { await shared.pace.pause(hub: shared.hub, seconds: seconds) }
    }

    /// The earliest instant the shared pace allows the next request: after the store's pause, and at a
    /// reserved slot of every budget.
    private func sharedSlot(_ shared: SharedPacing) async -> ContinuousClock.Instant {
        guard !shared.budgets.isEmpty else {
            let now = self.now()
            if lastPoll.map({ now - $0 >= Self.pollEvery }) ?? true {
                lastPoll = now
                if let wait = await shared.pace.reserve(hub: shared.hub, budget: nil, count: 0), wait > 0 {
                    pausedUntil = max(pausedUntil, self.now() + .seconds(wait))
                }
            }
            return pausedUntil
        }
        var at = now()
        for budget in shared.budgets { at = max(at, await slot(of: budget, shared)) }
        return at
    }

    /// Takes the next reserved slot of `budget`, reserving a block from the store when none is left. A store
    /// that cannot be asked (nil) leaves the block paced here alone, from now.
    private func slot(of budget: PaceBudget, _ shared: SharedPacing) async -> ContinuousClock.Instant {
        while true {
            if var block = blocks[budget.key], block.left > 0 {
                let slot = block.next
                block.next = slot + block.interval
                block.left -= 1
                blocks[budget.key] = block
                return slot
            }
            let refill: Task<Block, Never>
            if let pending = refills[budget.key] {
                refill = pending
            } else {
                let count = Self.blockSize(budget.rate)
                let pace = shared.pace
                let hub = shared.hub
                let now = now
                refill = Task {
                    let wait = await pace.reserve(hub: hub, budget: budget, count: count) ?? 0
                    return Block(next: now() + .seconds(max(0, wait)), left: count, interval: .seconds(1 / budget.rate))
                }
                refills[budget.key] = refill
            }
            let block = await refill.value
            // Whichever waiter resumes first installs the block; the others find it there.
            if refills[budget.key] == refill {
                refills[budget.key] = nil
                blocks[budget.key] = block
            }
        }
    }

    private func raiseIfCalm() {
        guard let pace = current else { return }
        let now = self.now()
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
            pacing.store(current != nil || hasBudgets, ordering: .relaxed)
        }
    }
}
