import Foundation
import PipelineCore
import RunStore

/// The journal traffic of a batch send, item by item as `BatchRunner` makes it: the duplicate check of the
/// item's idempotency key, the item marked `sending` (its own transaction, before its request would be
/// written), and outcomes recorded 64 at a time. No request is sent: this measures the store alone.
struct StoreWorkload {
    /// Items per recorded group, as the runner flushes.
    static let flushEvery = 64

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
        var pending: [LedgerOutcome] = []
        for row in 1...max(1, items) {
            let key = LedgerKey(step: 1, row: row)
            let item = LedgerItem(
                key: key, stepId: "send", origin: "rows.csv:\(row + 1)", digest: "digest-\(run.id)-\(row)",
                idempotencyKey: "1:digest-\(run.id)-\(row)", target: "$UserId:{u-\(row)}")
            _ = try await ledger.priorSend(key: item.idempotencyKey!, since: now - 43_200, excluding: key)
            try await ledger.markSending([item])
            pending.append(LedgerOutcome(item: item, state: .accepted, notificationId: "n-\(row)"))
            if pending.count == Self.flushEvery {
                try await ledger.record(pending)
                pending.removeAll(keepingCapacity: true)
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
