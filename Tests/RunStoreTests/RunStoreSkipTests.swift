import Foundation
import PipelineCore
import RunStore
import Testing

/// Rows a run skipped because another run had sent them: kept as ranges, yet counted, grouped and found one by one.
@Suite("RunStore contract: rows skipped as already sent")
struct RunStoreSkipTests {
    private static func sent(_ row: Int) -> LedgerItem {
        LedgerItem(
            key: LedgerKey(step: 1, row: row), stepId: "send", origin: "rows.csv:\(row + 1)", digest: "digest-\(row)",
            idempotencyKey: "request:key-\(row)", target: "$UserId:{u\(row)}")
    }

    @Test(
        "ranges count as duplicates, group under their run with their rows' origins, replace what they overlap, and are found",
        arguments: StoreKind.all)
    func rangesCountGroupAndAreFound(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let now = Date().timeIntervalSince1970
            let first = try await store.startRun(identity: "a", pipeline: "digest", pid: 1, now: now)
            try await store.ledger(for: first).record(
                (1...10).map { LedgerOutcome(item: Self.sent($0), state: .accepted, notificationId: "n\($0)") })

            let second = try await store.startRun(identity: "b", pipeline: "digest", pid: 2, now: now + 1)
            let ledger = store.ledger(for: second)
            func range(_ rows: ClosedRange<Int>, prior: Int) -> SkipRange {
                SkipRange(
                    step: 1, stepId: "send", rows: rows, originFile: "fixed.csv", firstLine: rows.lowerBound + 1,
                    priorRun: first.id,
                    prior: LedgerKey(step: 1, row: prior))
            }
            // The open range written twice as it grows (the second replaces the first), then row 5 sent, then 6–10.
            try await ledger.record([], skips: [range(1...3, prior: 1)])
            try await ledger.record(
                [LedgerOutcome(item: Self.sent(5), state: .accepted, notificationId: "m5")],
                skips: [range(1...4, prior: 1)])
            try await ledger.record([], skips: [range(6...10, prior: 6)])

            let counts = try await store.counts(run: second.id)
            #expect(
                counts == [
                    StepCount(step: 1, stepId: "send", state: .accepted, count: 1),
                    StepCount(step: 1, stepId: "send", state: .duplicate, count: 9),
                ])
            let groups = try await store.failureGroups(run: second.id, examples: 3)
            #expect(
                groups == [
                    FailureGroup(
                        step: 1, stepId: "send", state: .duplicate, error: "already sent by run \(first.id)", count: 9,
                        examples: ["fixed.csv:2", "fixed.csv:3", "fixed.csv:4"])
                ])

            // Found through the item that sent it: the skipping run's row first (newer), then the sender's.
            let found = try await store.find("u7", pipeline: nil, since: nil, limit: 10)
            #expect(found.map(\.runId) == [second.id, first.id])
            let skipped = try #require(found.first?.item)
            #expect(
                skipped.key == LedgerKey(step: 1, row: 7) && skipped.state == .duplicate
                    && skipped.origin == "fixed.csv:8")
            #expect(skipped.error?.hasPrefix("already sent by run \(first.id) (rows.csv:8 at ") == true)
            #expect(skipped.notificationId == "n7" && skipped.idempotencyKey == "request:key-7")
            #expect(try await store.find("key-7", pipeline: "other", since: nil, limit: 10).isEmpty)
            #expect(
                try await store.find("u5", pipeline: nil, since: nil, limit: 10).map(\.runId) == [second.id, first.id],
                "row 5 was sent by both (the second run's own record)")

            // A resume reads its rows again: what an earlier attempt skipped is recorded afresh.
            _ = try await store.resumeRun(id: second.id, pid: 3, now: now + 2)
            #expect(
                try await store.counts(run: second.id) == [
                    StepCount(step: 1, stepId: "send", state: .accepted, count: 1)
                ])
        }
    }

    private func extended(_ range: inout SkipRange, row: Int, origin: String, priorRun: String, prior: LedgerKey)
        -> Bool
    {
        range.extend(row: row, origin: origin, priorRun: priorRun, prior: prior)
    }

    @Test("a range takes the next row only when its line, its run and its prior item all follow on")
    func extending() {
        var range = SkipRange(
            step: 1, stepId: "send", row: 4, origin: "data/rows.csv:5", priorRun: "r1",
            prior: LedgerKey(step: 1, row: 4))
        #expect(extended(&range, row: 5, origin: "data/rows.csv:6", priorRun: "r1", prior: LedgerKey(step: 1, row: 5)))
        #expect(
            !extended(&range, row: 6, origin: "data/rows.csv:8", priorRun: "r1", prior: LedgerKey(step: 1, row: 6)),
            "a quoted line break")
        #expect(!extended(&range, row: 6, origin: "data/rows.csv:7", priorRun: "r2", prior: LedgerKey(step: 1, row: 6)))
        #expect(!extended(&range, row: 6, origin: "data/rows.csv:7", priorRun: "r1", prior: LedgerKey(step: 1, row: 9)))
        #expect(!extended(&range, row: 7, origin: "data/rows.csv:8", priorRun: "r1", prior: LedgerKey(step: 1, row: 6)))
        #expect(extended(&range, row: 6, origin: "data/rows.csv:7", priorRun: "r1", prior: LedgerKey(step: 1, row: 6)))
        #expect(
            range.rows == 4...6 && range.origin(of: 6) == "data/rows.csv:7"
                && range.prior(of: 6) == LedgerKey(step: 1, row: 6))
        #expect(
            range.row(sentAs: LedgerKey(step: 1, row: 5)) == 5 && range.row(sentAs: LedgerKey(step: 1, row: 7)) == nil)
        var whole = SkipRange(
            step: 1, stepId: "send", row: 1, origin: "inline", priorRun: "r1", prior: LedgerKey(step: 1, row: 1))
        #expect(
            !extended(&whole, row: 2, origin: "inline", priorRun: "r1", prior: LedgerKey(step: 1, row: 2)),
            "no line to follow")
        #expect(whole.origin(of: 1) == "inline")
    }
}
