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
        for page in stride(from: 0, to: lines.count, by: 300) {
            try await filler.append(Array(lines[page..<min(page + 300, lines.count)]))
        }
        let rows = try await filler.complete(columns: ["userId"], count: count, digest: "d-\(count)", now: now)
        await filler.release()
        return rows
    }

    @Test(
        "one part fills a spool while the others are told it is busy; then every part of the run, and a reopen, find it complete with every line in order",
        arguments: StoreKind.all)
    func partsShareOneSpool(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, reopen in
            let first = try await store.startRun(
                identity: "abc", pipeline: "digest", shard: Shard(index: 0, count: 2), generation: 0, pid: 1,
                now: novemberMorning)
            let second = try await store.startRun(
                identity: "abc", pipeline: "digest", shard: Shard(index: 1, count: 2), generation: 0, pid: 2,
                now: novemberMorning)
            guard
                case .fill(let filler) = try await #require(store.ledger(for: first).rowSpool).claimSpool(
                    step: 1, source: Self.source, now: novemberMorning)
            else {
                Issue.record("the first claim fills")
                return
            }
            guard
                case .busy = try await #require(store.ledger(for: second).rowSpool).claimSpool(
                    step: 1, source: Self.source, now: novemberMorning)
            else {
                Issue.record("a second part waits while the first fills")
                return
            }
            let rows = try await fill(filler, count: 1_234, now: novemberMorning + 5)
            #expect(
                rows.count == 1_234 && rows.columns == ["userId"] && rows.digest == "d-1234" && rows.run == first.id)
            let again = try await reopen()
            guard
                case .complete(let found) = try await #require(again.ledger(for: second).rowSpool).claimSpool(
                    step: 1, source: Self.source, now: novemberMorning + 6)
            else {
                Issue.record("the other part finds the spool complete")
                return
            }
            #expect(
                found.spool == rows.spool && found.count == 1_234 && found.columns == ["userId"]
                    && found.digest == "d-1234")
            let spool = try #require(found.spool)
            let ledger = try #require(again.ledger(for: second).rowSpool)
            let page = try await ledger.spoolLines(spool, after: 0, limit: 3)
            #expect(page == [#"{"userId":"u1"}"#, #"{"userId":"u2"}"#, #"{"userId":"u3"}"#])
            #expect(try await ledger.spoolLines(spool, after: 1_233, limit: 10) == [#"{"userId":"u1234"}"#])
            #expect(try await ledger.spoolLines(spool, after: 1_234, limit: 10).isEmpty)
            // Another source of the same step is another spool.
            guard case .fill(let other) = try await ledger.claimSpool(step: 1, source: "other", now: novemberMorning)
            else {
                Issue.record("another source is its own spool")
                return
            }
            await other.release()
        }
    }

    @Test(
        "a spool its filler left unfinished is started afresh by the next claim: the old rows go",
        arguments: StoreKind.all)
    func unfinishedSpoolStartsAfresh(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(identity: "abc", pipeline: "digest", pid: 1, now: novemberMorning)
            let spool = try #require(store.ledger(for: run).rowSpool)
            guard case .fill(let dying) = try await spool.claimSpool(step: 1, source: Self.source, now: novemberMorning)
            else {
                Issue.record("fills")
                return
            }
            try await dying.append([#"{"userId":"stale"}"#])
            await dying.release()
            guard
                case .fill(let filler) = try await spool.claimSpool(
                    step: 1, source: Self.source, now: novemberMorning + 1)
            else {
                Issue.record("fills again")
                return
            }
            let rows = try await fill(filler, count: 2, now: novemberMorning + 2)
            #expect(
                try await spool.spoolLines(try #require(rows.spool), after: 0, limit: 10) == [
                    #"{"userId":"u1"}"#, #"{"userId":"u2"}"#,
                ])
        }
    }

    @Test(
        "a new run (the next generation) fills a spool of its own and never finds an earlier run's rows; a resume finds its own; removing a run removes its rows",
        arguments: StoreKind.all)
    func newRunReadsAfresh(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let night1 = try await store.startRun(
                identity: "abc", pipeline: "digest", shard: nil, generation: 0, pid: 1, now: novemberMorning)
            guard
                case .fill(let filler) = try await #require(store.ledger(for: night1).rowSpool).claimSpool(
                    step: 1, source: Self.source, now: novemberMorning)
            else {
                Issue.record("fills")
                return
            }
            let first = try await fill(filler, count: 3, now: novemberMorning + 10)
            try await store.finishRun(
                id: night1.id, state: .completed, exitCode: 0, summary: nil, now: novemberMorning + 20)
            let night2 = try await store.startRun(
                identity: "abc", pipeline: "digest", shard: nil, generation: 1, pid: 2, now: novemberMorning + 86_400)
            let spool = try #require(store.ledger(for: night2).rowSpool)
            guard
                case .fill(let fresh) = try await spool.claimSpool(
                    step: 1, source: Self.source, now: novemberMorning + 86_400)
            else {
                Issue.record("the next night's run reads its source afresh")
                return
            }
            let second = try await fill(fresh, count: 2, now: novemberMorning + 86_410)
            #expect(second.spool != first.spool && second.count == 2)
            guard
                case .complete(let kept) = try await #require(store.ledger(for: night1).rowSpool).claimSpool(
                    step: 1, source: Self.source, now: novemberMorning + 86_420)
            else {
                Issue.record("a resume of the first run finds the rows it first read")
                return
            }
            #expect(kept.spool == first.spool && kept.count == 3)
            _ = try await store.removeRuns([night2.id], dryRun: false)
            #expect(try await spool.spoolLines(try #require(second.spool), after: 0, limit: 10).isEmpty)
            #expect(try await spool.spoolLines(try #require(first.spool), after: 0, limit: 10).count == 3)
        }
    }

    @Test(
        "a filler whose spool another process took over cannot complete it; pruning one part of a split run leaves the spool to the others",
        arguments: StoreKind.all)
    func takeoverAndPrune(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let first = try await store.startRun(
                identity: "abc", pipeline: "digest", shard: Shard(index: 0, count: 2), generation: 0, pid: 1,
                now: novemberMorning)
            let second = try await store.startRun(
                identity: "abc", pipeline: "digest", shard: Shard(index: 1, count: 2), generation: 0, pid: 2,
                now: novemberMorning)
            let mine = try #require(store.ledger(for: first).rowSpool)
            guard case .fill(let slow) = try await mine.claimSpool(step: 1, source: Self.source, now: novemberMorning)
            else {
                Issue.record("fills")
                return
            }
            try await slow.append([#"{"userId":"u1"}"#])
            await slow.release()  // as if its lock were lost: another process takes the spool over
            let theirs = try #require(store.ledger(for: second).rowSpool)
            guard
                case .fill(let other) = try await theirs.claimSpool(
                    step: 1, source: Self.source, now: novemberMorning + 1)
            else {
                Issue.record("takes over")
                return
            }
            await #expect(throws: LedgerError.self) {
                _ = try await slow.complete(columns: ["userId"], count: 1, digest: "d", now: novemberMorning + 2)
            }
            let rows = try await fill(other, count: 2, now: novemberMorning + 3)
            try await store.finishRun(
                id: first.id, state: .completed, exitCode: 0, summary: nil, now: novemberMorning + 4)
            _ = try await store.removeRuns([first.id], dryRun: false)
            guard
                case .complete(let kept) = try await theirs.claimSpool(
                    step: 1, source: Self.source, now: novemberMorning + 5)
            else {
                Issue.record("the other part's spool stays")
                return
            }
            let keptLines = try await theirs.spoolLines(try #require(kept.spool), after: 0, limit: 5)
            #expect(kept.spool == rows.spool && keptLines.count == 2)
            _ = try await store.removeRuns([second.id], dryRun: false)
            #expect(
                try await theirs.spoolLines(try #require(kept.spool), after: 0, limit: 5).isEmpty,
                "with the last part, the spool goes")
        }
    }

    @Test("a read-only ledger (a dry run's) keeps no rows", arguments: StoreKind.all)
    func readOnlyKeepsNone(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            #expect(store.readOnlyLedger().rowSpool == nil)
        }
    }
}
