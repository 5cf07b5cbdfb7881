import Foundation
import PipelineCore
import RunStore
import Testing

@Suite("RunStore contract: runs")
struct RunStoreRunsTests {
    @Test("startRun gives unique ids made of the UTC start time and six hex digits", arguments: StoreKind.all)
    func startRunIDs(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            var ids: Set<String> = []
            for _ in 0..<200 {
                let run = try await store.startRun(
                    identity: "abc", pipeline: "send.yaml", pid: 7, now: novemberMorning + 0.25)
                #expect(run.id.wholeMatch(of: #/20261122-041200-[0-9a-f]{6}/#) != nil, "\(run.id)")
                #expect(run.status == .running)
                #expect(run.startedAt == novemberMorning + 0.25)
                #expect(run.pid == 7 && run.resumes == 0 && run.endedAt == nil && run.exitCode == nil)
                ids.insert(run.id)
            }
            #expect(ids.count == 200)
            #expect(try await store.runs(limit: 1000).count == 200)
            let early = try await store.startRun(identity: "abc", pipeline: "p", pid: 1, now: 0)
            #expect(early.id.hasPrefix("19700101-000000-"))
        }
    }

    @Test("latestRun returns the newest run with the identity, or nil", arguments: StoreKind.all)
    func latestRun(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.startRun(identity: "aaa", pipeline: "p", pid: 1, now: 100)
            let newest = try await store.startRun(identity: "aaa", pipeline: "p", pid: 2, now: 300)
            _ = try await store.startRun(identity: "aaa", pipeline: "p", pid: 3, now: 200)
            let other = try await store.startRun(identity: "bbb", pipeline: "p", pid: 4, now: 400)

            #expect(try await store.latestRun(identity: "aaa") == newest)
            #expect(try await store.latestRun(identity: "bbb") == other)
            #expect(try await store.latestRun(identity: "ccc") == nil)
        }
    }

    @Test("resumeRun marks the run running again and counts the resume", arguments: StoreKind.all)
    func resumeRun(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            try await store.finishRun(
                id: run.id, state: .interrupted, exitCode: 130, summary: "{}", now: novemberMorning + 5)

            let first = try await store.resumeRun(id: run.id, pid: 5000, now: novemberMorning + 60)
            #expect(first.status == .running)
            #expect(first.pid == 5000)
            #expect(first.resumes == 1)
            #expect(first.resumedAt == novemberMorning + 60)
            #expect(first.endedAt == nil && first.exitCode == nil && first.summary == nil)
            #expect(first.startedAt == run.startedAt && first.identity == run.identity)

            let second = try await store.resumeRun(id: run.id, pid: 5001, now: novemberMorning + 120)
            #expect(second.resumes == 2)
            #expect(try await store.run(matching: run.id) == second)

            let error = await #expect(throws: RunStoreError.self) {
                try await store.resumeRun(id: "nope", pid: 1, now: 0)
            }
            #expect(error?.message.contains("no run nope") == true)
        }
    }

    @Test("finishRun stores the status, exit code, end time and summary", arguments: StoreKind.all)
    func finishRun(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let summary = #"{"accepted":10,"failed":2}"#
            try await store.finishRun(
                id: run.id, state: .partial, exitCode: 3, summary: summary, now: novemberMorning + 42)

            let stored = try #require(try await store.run(matching: run.id))
            #expect(stored.status == .partial)
            #expect(stored.exitCode == 3)
            #expect(stored.endedAt == novemberMorning + 42)
            #expect(stored.summary == summary)

            try await store.finishRun(
                id: run.id, state: .completed, exitCode: 0, summary: nil, now: novemberMorning + 50)
            let again = try #require(try await store.run(matching: run.id))
            #expect(again.status == .completed && again.exitCode == 0 && again.summary == nil)

            await #expect(throws: RunStoreError.self) {
                try await store.finishRun(id: "missing", state: .failed, exitCode: 1, summary: nil, now: 0)
            }
            await #expect(throws: RunStoreError.self) {
                try await store.finishRun(id: run.id, state: .running, exitCode: 0, summary: nil, now: 0)
            }
        }
    }

    @Test(
        "runningRuns lists the pipeline's runs marked running, whatever their identity or shard, newest first",
        arguments: StoreKind.all)
    func runningRuns(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let whole = try await store.startRun(identity: "a", pipeline: "/p.yaml", pid: 1, now: novemberMorning)
            let done = try await store.startRun(identity: "b", pipeline: "/p.yaml", pid: 2, now: novemberMorning + 1)
            try await store.finishRun(
                id: done.id, state: .completed, exitCode: 0, summary: nil, now: novemberMorning + 2)
            let part = try await store.startRun(
                identity: "c", pipeline: "/p.yaml", shard: Shard("1/4"), pid: 3, now: novemberMorning + 3)
            _ = try await store.startRun(identity: "a", pipeline: "/q.yaml", pid: 4, now: novemberMorning + 4)
            #expect(try await store.runningRuns(pipeline: "/p.yaml", limit: 10).map(\.id) == [part.id, whole.id])
            #expect(try await store.runningRuns(pipeline: "/p.yaml", limit: 10).first?.shard == Shard("1/4"))
            #expect(try await store.runningRuns(pipeline: "/p.yaml", limit: 1).count == 1)
            #expect(try await store.runningRuns(pipeline: "/none.yaml", limit: 10).isEmpty)
        }
    }

    @Test("runs(limit:) lists newest first, at most limit", arguments: StoreKind.all)
    func runsNewestFirst(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let a = try await store.startRun(identity: "x", pipeline: "p", pid: 1, now: 1000)
            let c = try await store.startRun(identity: "y", pipeline: "p", pid: 1, now: 3000)
            let b = try await store.startRun(identity: "z", pipeline: "p", pid: 1, now: 2000)
            #expect(try await store.runs(limit: 10).map(\.id) == [c.id, b.id, a.id])
            #expect(try await store.runs(limit: 2).map(\.id) == [c.id, b.id])
            #expect(try await store.runs(limit: 0).isEmpty)
        }
    }

    @Test(
        "run(matching:) finds an exact id or a unique prefix, and refuses an ambiguous prefix", arguments: StoreKind.all
    )
    func runMatching(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let first = try await store.startRun(identity: "x", pipeline: "p", pid: 1, now: novemberMorning)
            let second = try await store.startRun(identity: "x", pipeline: "p", pid: 1, now: novemberMorning + 1)
            let nextDay = try await store.startRun(identity: "x", pipeline: "p", pid: 1, now: novemberMorning + 86_400)

            #expect(try await store.run(matching: first.id) == first)
            #expect(try await store.run(matching: second.id) == second)
            #expect(try await store.run(matching: "20261123") == nextDay)
            #expect(try await store.run(matching: "20261122-041201") == second)
            #expect(try await store.run(matching: "2025") == nil)
            #expect(try await store.run(matching: "") == nil)
            #expect(try await store.run(matching: "2026112_") == nil, "LIKE wildcards are not wildcards here")

            let error = await #expect(throws: RunStoreError.self) { try await store.run(matching: "20261122-0412") }
            let message = error?.message ?? ""
            #expect(message.contains("matches 2 runs"))
            #expect(message.contains(first.id) && message.contains(second.id))
            #expect(message.contains(store.location))
        }
    }

    @Test(
        "the shards of one run are runs of their own under one identity; latestRun finds each part, runs(identity:) all",
        arguments: StoreKind.all)
    func shards(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, reopen in
            let whole = try await store.startRun(identity: "digest", pipeline: "/p.yaml", pid: 1, now: 100)
            var parts: [RunRecord] = []
            for index in 0..<4 {
                let shard = try #require(Shard(index: index, count: 4))
                parts.append(
                    try await store.startRun(
                        identity: "digest", pipeline: "/p.yaml", shard: shard, pid: Int32(10 + index),
                        now: 200 + Double(index)))
            }
            let other = try await reopen()
            #expect(try await other.latestRun(identity: "digest") == whole, "a run of every row is not a shard")
            for (index, part) in parts.enumerated() {
                #expect(part.shard == Shard(index: index, count: 4))
                #expect(try await other.latestRun(identity: "digest", shard: Shard(index: index, count: 4)) == part)
            }
            #expect(try await other.latestRun(identity: "digest", shard: Shard(index: 0, count: 2)) == nil)
            #expect(
                try await other.runs(identity: "digest", limit: 10).map(\.id) == parts.reversed().map(\.id) + [whole.id]
            )
            #expect(try await other.runs(identity: "digest", limit: 2).count == 2)
            #expect(try await other.run(matching: parts[2].id)?.shard == Shard(index: 2, count: 4))
        }
    }
}
