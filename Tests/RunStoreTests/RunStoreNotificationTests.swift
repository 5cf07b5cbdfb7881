import Foundation
import PipelineCore
import RunStore
import Testing

/// What an `outcomes` step reads of the run store: a repeatable, evenly spread sample of one step's notification ids in
/// this run, and how many there are.
@Suite("RunStore contract: a step's notification ids")
struct RunStoreNotificationTests {
    @Test(
        "the sample is spread over the step's items in row order; items without an id, other steps' and other runs' are left out",
        arguments: StoreKind.all)
    func sampleOfOneStep(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let ledger = store.ledger(for: run)
            let sent = (1...10).map { item(3, $0) }
            try await ledger.markSending(sent + [item(3, 11), item(4, 1)])
            // Recorded out of order; ids NH gives (32 hex digits and a number), which the SQLite journal keeps compacted.
            try await ledger.record(
                sent.reversed().map {
                    LedgerOutcome(
                        item: $0, state: .accepted, notificationId: "9165555e87ba4e4ab1980a49f00979d9-\($0.key.row)")
                })
            try await ledger.record([
                LedgerOutcome(item: item(3, 11), state: .failed, error: "410 gone"),
                LedgerOutcome(item: item(4, 1), state: .accepted, notificationId: "other-step"),
            ])

            let sample = try #require(try await ledger.notificationIds(step: 3, sample: 4))
            #expect(sample.total == 10)
            #expect(sample.ids == [1, 3, 6, 8].map { "9165555e87ba4e4ab1980a49f00979d9-\($0)" })
            #expect(
                try await ledger.notificationIds(step: 3, sample: 100)?.ids.count == 10,
                "every id when there are no more than the sample")
            #expect(try await ledger.notificationIds(step: 5, sample: 4) == NotificationSample(ids: [], total: 0))

            let next = try await store.startRun(
                identity: "def456", pipeline: "send.yaml", pid: 4243, now: novemberMorning + 60)
            #expect(
                try await store.ledger(for: next).notificationIds(step: 3, sample: 4)
                    == NotificationSample(ids: [], total: 0))
        }
    }

    @Test(
        "picks are the same whichever store: the first, then every n-th",
        arguments: [
            (10, 4, [0, 2, 5, 7]), (3, 5, [0, 1, 2]), (0, 5, []), (1000, 1, [0]),
        ])
    func picks(_ total: Int, _ size: Int, _ expected: [Int]) {
        #expect(NotificationSample.picks(of: total, size: size) == expected)
    }
}
