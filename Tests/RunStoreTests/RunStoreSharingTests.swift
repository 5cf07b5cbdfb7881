import Foundation
import PipelineCore
import RunStore
import Testing

@Suite("RunStore contract: sharing")
struct RunStoreSharingTests {
    @Test("one store serves concurrent tasks; a second handle sees every commit at once", arguments: StoreKind.all)
    func concurrentTasks(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, reopen in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let reader = try await reopen()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for step in 0..<4 {
                    group.addTask {
                        let ledger = store.ledger(for: run)
                        for row in 1...50 {
                            try await ledger.markSending([item(step, row)])
                            try await ledger.record([
                                LedgerOutcome(
                                    item: item(step, row), state: .accepted, notificationId: "n\(step)-\(row)")
                            ])
                        }
                    }
                }
                try await group.waitForAll()
            }
            let counts = try await reader.counts(run: run.id)
            #expect(counts == (0..<4).map { StepCount(step: $0, stepId: "send", state: .accepted, count: 50) })
            #expect(try await reader.ledger(for: run).entry(LedgerKey(step: 3, row: 50))?.notificationId == "n3-50")
        }
    }
}
