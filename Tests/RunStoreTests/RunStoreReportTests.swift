import Foundation
import PipelineCore
import RunStore
import Testing

@Suite("RunStore contract: counts, items and failure groups")
struct RunStoreReportTests {
    /// Step 0 `register` (rows 1–4) and step 1 `send` (rows 1–8) in a mix of states.
    private func populate(_ store: any RunStore, run: RunRecord) async throws {
        let ledger = store.ledger(for: run)
        let register = (1...4).map { item(0, $0, stepId: "register") }
        try await ledger.markSending(register)
        try await ledger.record(
            register.prefix(3).map { LedgerOutcome(item: $0, state: .accepted, notificationId: "r\($0.key.row)") })
        // register row 4 stays `sending`, as if the process were killed mid-request.

        let send = (1...8).map { item(1, $0) }
        try await ledger.markSending(Array(send.prefix(7)))
        try await ledger.record([
            LedgerOutcome(item: send[0], state: .accepted, notificationId: "n1"),
            LedgerOutcome(item: send[1], state: .failed, error: "403 Forbidden"),
            LedgerOutcome(item: send[2], state: .unknown, error: "504 Gateway Timeout", retriable: true),
            LedgerOutcome(item: send[3], state: .failed, error: "403 Forbidden"),
            LedgerOutcome(item: send[4], state: .failed, error: "403 Forbidden"),
            LedgerOutcome(item: send[5], state: .failed, error: nil),
            LedgerOutcome(item: send[6], state: .accepted),
            // Row 8 was malformed: never sent.
            LedgerOutcome(item: send[7], state: .failed, error: "400 Bad Request"),
        ])
    }

    @Test("counts gives per-step, per-state totals in lifecycle order", arguments: StoreKind.all)
    func counts(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            try await populate(store, run: run)
            #expect(
                try await store.counts(run: run.id) == [
                    StepCount(step: 0, stepId: "register", state: .sending, count: 1),
                    StepCount(step: 0, stepId: "register", state: .accepted, count: 3),
                    StepCount(step: 1, stepId: "send", state: .accepted, count: 2),
                    StepCount(step: 1, stepId: "send", state: .failed, count: 5),
                    StepCount(step: 1, stepId: "send", state: .unknown, count: 1),
                ])
            #expect(try await store.counts(run: "no-such-run").isEmpty)
        }
    }

    @Test("items filters by state, orders by step and row, and honours the limit", arguments: StoreKind.all)
    func items(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let before = Date().timeIntervalSince1970
            try await populate(store, run: run)

            let unfinished = try await store.items(run: run.id, states: [.unknown, .sending], limit: 100)
            #expect(unfinished.map(\.key) == [LedgerKey(step: 0, row: 4), LedgerKey(step: 1, row: 3)])
            let unknown = try #require(unfinished.last)
            #expect(
                unknown
                    == JournalItem(
                        key: LedgerKey(step: 1, row: 3), stepId: "send", origin: "rows.csv:3",
                        digest: "digest-3", state: .unknown, attempts: 1, error: "504 Gateway Timeout",
                        retriable: true, updatedAt: unknown.updatedAt))
            #expect(unknown.updatedAt >= before - 1 && unknown.updatedAt <= Date().timeIntervalSince1970 + 1)

            let failed = try await store.items(run: run.id, states: [.failed], limit: 3)
            #expect(failed.map(\.key.row) == [2, 4, 5])
            #expect(failed.allSatisfy { $0.state == .failed && $0.key.step == 1 })

            let all = try await store.items(run: run.id, states: [], limit: 1000)
            #expect(all.count == 12)
            #expect(all.map(\.key) == all.map(\.key).sorted())
            #expect(all.first { $0.key == LedgerKey(step: 1, row: 8) }?.attempts == 0)
            #expect(try await store.items(run: run.id, states: [.pending], limit: 10).isEmpty)
        }
    }

    @Test(
        "failureGroups groups failed and unknown items by error, biggest first, with example origins",
        arguments: StoreKind.all)
    func failureGroups(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            try await populate(store, run: run)

            let groups = try await store.failureGroups(run: run.id, examples: 2)
            #expect(
                groups.first
                    == FailureGroup(
                        step: 1, stepId: "send", state: .failed, error: "403 Forbidden", count: 3,
                        examples: ["rows.csv:2", "rows.csv:4"]))
            #expect(groups.count == 4)
            #expect(groups.dropFirst().allSatisfy { $0.count == 1 })
            // Ties in count go by step, state, then error in byte order (no error first), the same in both stores.
            #expect(groups.map(\.error) == ["403 Forbidden", nil, "400 Bad Request", "504 Gateway Timeout"])
            #expect(
                groups.first { $0.error == nil }?.examples == ["rows.csv:6"], "items without an error form a group too")
            #expect(groups.first { $0.state == .unknown }?.examples == ["rows.csv:3"])

            let bare = try await store.failureGroups(run: run.id, examples: 0)
            #expect(bare.map(\.count) == groups.map(\.count))
            #expect(bare.allSatisfy { $0.examples.isEmpty })
        }
    }
}
