import Synchronization

/// Refused requests counted per route, status and address over an interval, so a flood of refusals (429s, 401s)
/// costs the access log a few summary lines per interval instead of a line per request.
final class RefusalTally: Sendable {
    /// What one summary line counts.
    struct Key: Hashable, Sendable {
        let route: String
        let status: Int
        let address: String
    }

    /// One summary line: `count` refusals of `key` in the interval that began at `since`; a nil key counts the
    /// refusals of every key past the busiest `maxKeys`.
    struct Summary: Equatable, Sendable {
        let key: Key?
        let count: Int
        let keys: Int
        let since: Double
        let seconds: Double
    }

    /// Seconds an interval lasts.
    let interval: Double
    /// Summary lines an interval writes at most, besides the one counting the rest.
    let maxKeys: Int

    private struct State {
        var since: Double?
        var counts: [Key: Int] = [:]
    }

    private let state = Mutex(State())

    init(interval: Double = 10, maxKeys: Int = 20) {
        self.interval = interval
        self.maxKeys = maxKeys
    }

    /// True for a status that is summarized rather than logged line by line: a request refused as a client error
    /// (401, 404, 429, …) or because the service was busy (503).
    static func isRefusal(_ status: Int) -> Bool {
        (400..<500).contains(status) || status == 503
    }

    /// Counts a refusal at `now`; returns the summaries of an interval that has ended, to be written.
    func add(_ key: Key, now: Double) -> [Summary] {
        state.withLock { state in
            let due = Self.due(&state, now: now, interval: interval, maxKeys: maxKeys)
            if state.since == nil { state.since = now }
            state.counts[key, default: 0] += 1
            return due
        }
    }

    /// The summaries of an interval that has ended by `now`, or of the current one when `force` (at shutdown).
    func flush(now: Double, force: Bool = false) -> [Summary] {
        state.withLock { state in
            Self.due(&state, now: now, interval: force ? 0 : interval, maxKeys: maxKeys)
        }
    }

    private static func due(_ state: inout State, now: Double, interval: Double, maxKeys: Int) -> [Summary] {
        guard let since = state.since, now - since >= interval, !state.counts.isEmpty else { return [] }
        // Busiest first; equal counts in a fixed order, so the lines read the same from run to run.
        let ranked = state.counts.sorted { a, b in
            a.value != b.value
                ? a.value > b.value
                : (a.key.route, a.key.address, a.key.status) < (b.key.route, b.key.address, b.key.status)
        }
        let seconds = now - since
        var summaries = ranked.prefix(maxKeys).map {
            Summary(key: $0.key, count: $0.value, keys: 1, since: since, seconds: seconds)
        }
        let rest = ranked.dropFirst(maxKeys)
        if !rest.isEmpty {
            summaries.append(
                Summary(
                    key: nil, count: rest.reduce(0) { $0 + $1.value }, keys: rest.count, since: since, seconds: seconds)
            )
        }
        state = State()
        return summaries
    }
}
