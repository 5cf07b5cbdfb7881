import Foundation
import PipelineCore
import RunStore
import Testing

@Suite("RunStore contract: completed steps")
struct RunStoreStepTests {
    static let cancelled = CompletedStep(
        step: 2, stepId: "cancel the reminder", summary: "cancelled scheduled notification 'n-1' on hub 'main'",
        outputs: [
            "accepted": .integer(1), "notification-ids": .list(["n-1"], total: 1),
            "kept": .list(["a", "b"], total: 7), "payload": .string(#"{"aps":{"alert":"Hi \"you\""}}"#),
        ])

    @Test(
        "a completed step and its outputs read back exactly, across a reopen, for its run only; recording again replaces it",
        arguments: StoreKind.all)
    func completedStepsReadBack(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, reopen in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let other = try await store.startRun(
                identity: "def456", pipeline: "other.yaml", pid: 4243, now: novemberMorning)
            #expect(try await store.ledger(for: run).completedStep(2) == nil)
            // A step with items (its id recorded with them) and one without any.
            try await store.ledger(for: run).markSending([item(2, 1, stepId: "cancel the reminder")])
            try await store.ledger(for: run).recordCompleted(Self.cancelled)
            try await store.ledger(for: run).recordCompleted(
                CompletedStep(step: 3, stepId: "send", summary: "sent", outputs: [:]))

            let again = try await reopen()
            #expect(try await again.ledger(for: run).completedStep(2) == Self.cancelled)
            #expect(try await again.ledger(for: other).completedStep(2) == nil)
            #expect(try await again.completedSteps(run: run.id).map(\.step) == [2, 3])
            #expect(try await again.completedSteps(run: other.id).isEmpty)

            var replaced = Self.cancelled
            replaced.summary = "cancelled again"
            try await again.ledger(for: run).recordCompleted(replaced)
            #expect(try await again.ledger(for: run).completedStep(2)?.summary == "cancelled again")

            // Removing the run removes its steps.
            _ = try await again.removeRuns([run.id], dryRun: false)
            #expect(try await again.completedSteps(run: run.id).isEmpty)
        }
    }
}
