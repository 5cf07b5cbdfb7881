import Foundation
import PipelineCore
import RunStore
import Testing

@Suite("RunStore contract: spooled rows")
struct RunStoreSpoolTests {
    static let source = "source-digest"

    /// Fills a spool with `count` numbered rows and completes it.
    private func fill(_ filler: any SpoolFiller, count: Int, now: Double) async throws -> SpooledRows {
        var lines: [String] = []
        for number in 1...count { lines.append(#"{"userId":"u\#(number)"}"#) }
        for page in stride(from: 0, to: lines.count, by: 300) { try await filler.append(Array(lines[page..<min(page + 300, lines.count)])) }
        let rows = try await filler.complete(columns: ["userId"], count: count, digest: "d-\(count)", now: now)
        await filler.release()
        return rows
    }

    @Test("one part fills a spool while the others are told it is busy; then every part of the run, and a reopen, find it complete with every line in order",
          arguments: StoreKind.all)
    func partsShareOneSpool(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, reopen in
            let first = try await store.startRun(identity: "abc", pipeline: "digest", shard: Shard(index: 0, count: 2), generation: 0, pid: 1, now: novemberMorning)
            let second = try await store.startRun(identity: "abc", pipeline: "digest", shard: Shard(index: 1, count: 2), generation: 0, pid: 2, now: novemberMorning)
            guard case .fill(let filler) = try await #require(store.ledger(for: first).rowSpool).claimSpool(step: 1, source: Self.source, now: novemberMorning) else {
                Issue.record("the first claim fills")
                return
            }
            guard case .busy = try await #require(store.ledger(for: second).rowSpool).claimSpool(step: 1, source: Self.source, now: novemberMorning) else {
                Issue.record("a second part waits while the first fills")
                return
            }
            let rows = try await fill(filler, count: 1_234, now: novemberMorning + 5)
            #expect(rows.count == 1_234 && rows.columns == ["userId"] && rows.digest == "d-1234" && rows.run == first.id)
            let again = try await reopen()
            guard case .complete(let found) = try await #require(again.ledger(for: second).rowSpool).claimSpool(step: 1, source: Self.source, now: novemberMorning + 6) else {
                Issue.record("the other part finds the spool complete")
                return
            }
            #expect(found.spool == rows.spool && found.count == 1_234 && found.columns == ["userId"] && found.digest == "d-1234")
            let spool = try #require(found.spool)
            let ledger = try #require(again.ledger(for: second).rowSpool)
            let page = try await ledger.spoolLines(spool, after: 0, limit: 3)
            #expect(page == [#"{"userId":"u1"}"#, #"{"userId":"u2"}"#, #"{"userId":"u3"}"#])
            #expect(try await ledger.spoolLines(spool, after: 1_233, limit: 10) == [#"{"userId":"u1234"}"#])
            #expect(try await ledger.spoolLines(spool, after: 1_234, limit: 10).isEmpty)
            // Another source of the same step is another spool.
            guard case .fill(let other) = try await ledger.claimSpool(step: 1, source: "other", now: novemberMorning) else {
                Issue.record("another source is its own spool")
                return
            }
            await other.release()
        }
    }

    @Test("a spool its filler left unfinished is started afresh by the next claim: the old rows go", arguments: StoreKind.all)
    func unfinishedSpoolStartsAfresh(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(identity: "abc", pipeline: "digest", pid: 1, now: novemberMorning)
            let spool = try #require(store.ledger(for: run).rowSpool)
            guard case .fill(let dying) = try await spool.claimSpool(step: 1, source: Self.source, now: novemberMorning) else { Issue.record("fills"); return }
            try await dying.append([#"{"userId":"stale"}"#])
            await dying.release()
            guard case .fill(let filler) = try await spool.claimSpool(step: 1, source: Self.source, now: novemberMorning + 1) else { Issue.record("fills again"); return }
            let rows = try await fill(filler, count: 2, now: novemberMorning + 2)
            #expect(try await spool.spoolLines(try #require(rows.spool), after: 0, limit: 10) == [#"{"userId":"u1"}"#, #"{"userId":"u2"}"#])
        }
    }

    @Test("a later run of the pipeline finds the rows an earlier run spooled from the same source within the window, not outside it; pruning the run removes them",
          arguments: StoreKind.all)
    func reuseWithinWindow(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let earlier = try await store.startRun(identity: "before-fix", pipeline: "digest", pid: 1, now: novemberMorning)
            guard case .fill(let filler) = try await #require(store.ledger(for: earlier).rowSpool).claimSpool(step: 1, source: Self.source, now: novemberMorning) else {
                Issue.record("fills")
                return
            }
            let rows = try await fill(filler, count: 3, now: novemberMorning + 10)
            try await store.finishRun(id: earlier.id, state: .failed, exitCode: 1, summary: nil, now: novemberMorning + 20)
            let fixed = try await store.startRun(identity: "after-fix", pipeline: "digest", pid: 2, now: novemberMorning + 3600)
            let spool = try #require(store.ledger(for: fixed).rowSpool)
            let reused = try await spool.reusableSpool(step: 1, source: Self.source, since: novemberMorning)
            #expect(reused?.spool == rows.spool && reused?.run == earlier.id && reused?.count == 3)
            #expect(try await spool.reusableSpool(step: 1, source: Self.source, since: novemberMorning + 11) == nil, "outside the window")
            #expect(try await spool.reusableSpool(step: 1, source: "other", since: novemberMorning) == nil, "another source")
            #expect(try await spool.reusableSpool(step: 2, source: Self.source, since: novemberMorning) == nil, "another step")
            let stranger = try await store.startRun(identity: "x", pipeline: "another-pipeline", pid: 3, now: novemberMorning + 3600)
            #expect(try await #require(store.ledger(for: stranger).rowSpool).reusableSpool(step: 1, source: Self.source, since: novemberMorning) == nil, "another pipeline")
            _ = try await store.removeRuns([earlier.id], dryRun: false)
            #expect(try await spool.reusableSpool(step: 1, source: Self.source, since: novemberMorning) == nil)
            #expect(try await spool.spoolLines(try #require(rows.spool), after: 0, limit: 10).isEmpty)
        }
    }

    @Test("a read-only ledger (a dry run's) keeps no rows", arguments: StoreKind.all)
    func readOnlyKeepsNone(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            #expect(store.readOnlyLedger().rowSpool == nil)
        }
    }
}
