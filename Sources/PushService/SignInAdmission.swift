import Synchronization

/// Who gets the next password check, so a flood of failing sign-ins cannot take the checking capacity from people
/// who can sign in.
///
/// bcrypt costs tens of milliseconds of CPU on purpose, so only `capacity` checks run at once. The rest wait here, in
/// a bounded queue, for at most `maxWait`; when a check ends, the waiter whose address has the fewest recent failed
/// sign-ins goes next (the earliest among equals). An address that floods failures sinks behind every address that
/// has not: a first sign-in from a fresh address waits only for the checks already running. Per-address and per-name
/// limits cannot do this alone, since a distributed flood keeps every attacker under them.
///
/// When the queue is full, a newcomer that ranks better than the worst waiter takes its place (that waiter is
/// answered "busy"); one that ranks no better is answered at once. Failures count for `failureWindow` seconds.
final class SignInAdmission: Sendable {
    /// Checks that may run at once.
    let capacity: Int
    /// Requests that may wait for a check.
    let maxWaiting: Int
    /// The longest a request waits before it is answered "busy".
    let maxWait: Duration
    /// How long a failed sign-in counts against its address.
    let failureWindow: Double

    private struct Waiter {
        let ticket: UInt64
        let address: String
        let continuation: CheckedContinuation<Bool, Never>
    }

    /// Failed sign-ins of an address within the window that began at `since`.
    private struct Failures {
        var count: Int
        var since: Double
    }

    private struct State {
        var running = 0
        var waiting: [Waiter] = []
        var nextTicket: UInt64 = 0
        var failures: [String: Failures] = [:]

        func failureCount(_ address: String, now: Double, window: Double) -> Int {
            guard let entry = failures[address], now - entry.since < window else { return 0 }
            return entry.count
        }

        /// Where a request from `address` with `ticket` ranks: fewer recent failures first, then the earlier ticket.
        func key(_ address: String, _ ticket: UInt64, now: Double, window: Double) -> (Int, UInt64) {
            (failureCount(address, now: now, window: window), ticket)
        }

        /// The index of the waiter to serve first (`best`) or to refuse first (`worst`).
        func rank(now: Double, window: Double) -> (best: Int, worst: Int)? {
            guard !waiting.isEmpty else { return nil }
            var best = 0
            var worst = 0
            var bestKey = (Int.max, UInt64.max)
            var worstKey = (Int.min, UInt64.min)
            for (index, waiter) in waiting.enumerated() {
                let key = key(waiter.address, waiter.ticket, now: now, window: window)
                if key < bestKey { (best, bestKey) = (index, key) }
                if key > worstKey { (worst, worstKey) = (index, key) }
            }
            return (best, worst)
        }
    }

    private let state = Mutex(State())
    private let clock: @Sendable () -> Double

    /// An admission of `capacity` checks at once, `maxWaiting` waiting for at most `maxWait`; `clock` gives seconds
    /// for the failure window.
    init(
        capacity: Int, maxWaiting: Int = 256, maxWait: Duration = .seconds(5), failureWindow: Double = 300,
        clock: @escaping @Sendable () -> Double
    ) {
        self.capacity = max(1, capacity)
        self.maxWaiting = max(0, maxWaiting)
        self.maxWait = maxWait
        self.failureWindow = failureWindow
        self.clock = clock
    }

    /// Waits for a check's turn: true when the check may run (call `leave()` after it), false when the request is to
    /// be answered "busy" (the queue was full of better-ranked requests, or its wait ran out).
    func enter(address: String) async -> Bool {
        let now = clock()
        let window = failureWindow
        enum Start {
            case run
            case wait(UInt64)
            case refuse
        }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let (start, evicted): (Start, CheckedContinuation<Bool, Never>?) = state.withLock { state in
                if state.running < capacity && state.waiting.isEmpty {
                    state.running += 1
                    return (.run, nil)
                }
                state.nextTicket += 1
                let waiter = Waiter(ticket: state.nextTicket, address: address, continuation: continuation)
                guard state.waiting.count >= maxWaiting else {
                    state.waiting.append(waiter)
                    return (.wait(waiter.ticket), nil)
                }
                // Full: the newcomer takes the worst waiter's place only when it ranks better.
                guard let (_, worst) = state.rank(now: now, window: window),
                    state.key(address, waiter.ticket, now: now, window: window)
                        < state.key(state.waiting[worst].address, state.waiting[worst].ticket, now: now, window: window)
                else { return (.refuse, nil) }
                let displaced = state.waiting.remove(at: worst)
                state.waiting.append(waiter)
                return (.wait(waiter.ticket), displaced.continuation)
            }
            evicted?.resume(returning: false)
            switch start {
            case .run: continuation.resume(returning: true)
            case .refuse: continuation.resume(returning: false)
            case .wait(let ticket):
                let limit = maxWait
                Task { [weak self] in
                    try? await Task.sleep(for: limit)
                    self?.expire(ticket)
                }
            }
        }
    }

    /// Ends a check that `enter` let run, and starts the best-ranked waiter's.
    func leave() {
        let now = clock()
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard let (best, _) = state.rank(now: now, window: failureWindow) else {
                state.running -= 1
                return nil
            }
            return state.waiting.remove(at: best).continuation
        }
        next?.resume(returning: true)
    }

    /// Counts a failed sign-in against `address`.
    func failed(address: String) {
        let now = clock()
        state.withLock { state in
            if state.failures.count > 50_000 {
                state.failures = state.failures.filter { now - $0.value.since < failureWindow }
            }
            if var entry = state.failures[address], now - entry.since < failureWindow {
                entry.count += 1
                state.failures[address] = entry
            } else {
                state.failures[address] = Failures(count: 1, since: now)
            }
        }
    }

    /// Requests waiting for a check now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Answers a waiter whose wait ran out "busy", if it is still waiting.
    private func expire(_ ticket: UInt64) {
        let expired: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard let index = state.waiting.firstIndex(where: { $0.ticket == ticket }) else { return nil }
            return state.waiting.remove(at: index).continuation
        }
        expired?.resume(returning: false)
    }
}
