import Foundation
import PipelineCore
import RunStore

/// The journal traffic of a batch send as `BatchRunner` makes it: the next 64 items' idempotency keys looked up
/// together, then groups of `group` items, each one transaction that records the outcomes of the group before it
/// and claims and marks this group `sending` (the group commit, before its requests would be written). `group` 1 is
/// every item marked on its own, as a hub answering one request at a time leaves it. No request is sent: this
/// measures the store alone.
struct StoreWorkload {
    /// Items whose keys are looked up together, as the runner reads ahead.
    static let lookahead = 64

    /// What one pass measured.
    struct Measurement {
        var items: Int
        var seconds: Double
        /// User + system CPU of this process over the pass, from rusage.
        var cpuSeconds: Double

        var itemsPerSecond: Double { Double(items) / max(seconds, 1e-9) }
        var cpuMicrosecondsPerItem: Double { cpuSeconds * 1e6 / Double(max(items, 1)) }
    }

    let store: any RunStore
    /// Items marked per transaction: the runner's commit group (half its pool: 8 at concurrency 16).
    var group = 8

    /// Runs `items` items through a fresh run of a pipeline named `pipeline`, holding its lock as a run does.
    func measure(items: Int, pipeline: String) async throws -> Measurement {
        let now = Date().timeIntervalSince1970
        guard
            case .acquired(let lock) = try await store.lock(
                pipeline: pipeline, holder: LockHolder(pid: getpid(), host: "bench", startedAt: now))
        else { throw BenchFailure("the lock of \(pipeline) is held") }
        let run = try await store.startRun(identity: UUID().uuidString, pipeline: pipeline, pid: getpid(), now: now)
        let ledger = store.ledger(for: run, lock: lock)
        let cpuBefore = Self.cpuSeconds()
        let clock = ContinuousClock()
        let start = clock.now
        let claim = KeyClaim(since: now - 43_200)
        var pending: [LedgerOutcome] = []
        let rows = Array(1...max(1, items))
        for ahead in stride(from: 0, to: rows.count, by: Self.lookahead) {
            let next = rows[ahead..<min(ahead + Self.lookahead, rows.count)].map { row in
                var item = LedgerItem(
                    key: LedgerKey(step: 1, row: row), stepId: "send", origin: "rows.csv:\(row + 1)",
                    digest: "digest-\(run.id)-\(row)", idempotencyKey: "1:digest-\(run.id)-\(row)",
                    target: "$UserId:{u-\(row)}")
                item.claimsKey = true
                return item
            }
            _ = try await ledger.priorSends(
                next.map { PriorAsk(key: $0.idempotencyKey!, item: $0.key) }, since: claim.since)
            for start in stride(from: 0, to: next.count, by: max(1, group)) {
                let marks = Array(next[start..<min(start + max(1, group), next.count)])
                let held = try await ledger.commit(recording: pending, skips: [], marking: marks, claim: claim)
                guard held.isEmpty else { throw BenchFailure("a fresh run's keys were held: \(held)") }
                pending = marks.map { LedgerOutcome(item: $0, state: .accepted, notificationId: "n-\($0.key.row)") }
            }
        }
        if !pending.isEmpty { try await ledger.record(pending) }
        let elapsed = clock.now - start
        let cpu = Self.cpuSeconds() - cpuBefore
        try await store.finishRun(
            id: run.id, state: .completed, exitCode: 0, summary: nil, now: Date().timeIntervalSince1970)
        await lock.release()
        let counts = try await store.counts(run: run.id)
        guard counts.map(\.count).reduce(0, +) == items, counts.allSatisfy({ $0.state == .accepted }) else {
            throw BenchFailure("the store holds \(counts) for \(items) items")
        }
        return Measurement(
            items: items,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            cpuSeconds: cpu)
    }

    /// User + system CPU time of this process so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
            usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
