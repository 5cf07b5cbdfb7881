import Foundation
import PipelineCore
import RunStore
import Testing

@Suite("RunStore contract: the pipeline lock")
struct RunStoreLockTests {
    private let pipeline = "/srv/pushline/digest.yaml"
    private let holder = LockHolder(pid: 4242, host: "batch-7", startedAt: novemberMorning)

    @Test(
        "one holder at a time: a second attempt is told who holds the lock, from any handle on the store",
        arguments: StoreKind.all)
    func exclusive(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, reopen in
            #expect(try await !store.isLocked(pipeline: pipeline))
            guard case .acquired(let lock) = try await store.lock(pipeline: pipeline, holder: holder) else {
                Issue.record("a free lock was not taken")
                return
            }
            #expect(lock.holder == holder)
            #expect(try await store.isLocked(pipeline: pipeline))

            let other = try await reopen()
            #expect(try await other.isLocked(pipeline: pipeline))
            let second = LockHolder(pid: 5000, host: "batch-8", startedAt: novemberMorning + 60)
            for handle in [store, other] {
                guard case .held(let shown) = try await handle.lock(pipeline: pipeline, holder: second) else {
                    Issue.record("a held lock was taken twice")
                    return
                }
                #expect(shown == holder, "the second run is told who holds the lock")
            }

            await lock.release()
            #expect(try await !other.isLocked(pipeline: pipeline))
            guard case .acquired(let again) = try await other.lock(pipeline: pipeline, holder: second) else {
                Issue.record("a released lock was not free")
                return
            }
            #expect(again.holder == second)
            await again.release()
            await again.release()  // harmless
            #expect(try await !store.isLocked(pipeline: pipeline))
        }
    }

    @Test("pipelines lock apart, even with the same file name in different directories", arguments: StoreKind.all)
    func perPipeline(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            var held: [any RunLock] = []
            for path in ["/a/digest.yaml", "/b/digest.yaml", "/a/weekly.yaml"] {
                guard case .acquired(let lock) = try await store.lock(pipeline: path, holder: holder) else {
                    Issue.record("\(path) was locked by another pipeline's lock")
                    return
                }
                held.append(lock)
            }
            #expect(try await !store.isLocked(pipeline: "/c/digest.yaml"))
            for lock in held { await lock.release() }
            #expect(try await !store.isLocked(pipeline: "/a/digest.yaml"))
        }
    }

    @Test(
        "asking whether a lock is held takes nothing: the holder can still be turned away and taken over",
        arguments: StoreKind.all)
    func probeOnlyReads(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            for _ in 0..<5 { #expect(try await !store.isLocked(pipeline: pipeline)) }
            guard case .acquired(let lock) = try await store.lock(pipeline: pipeline, holder: holder) else {
                Issue.record("probing left the lock taken")
                return
            }
            await lock.release()
        }
    }
}
