import Foundation
import PipelineCore
import RunStore
import Testing

/// The pace two processes share through one store: what each handle is told to wait is checked against the
/// time that passed between the calls, so the assertions hold however slow the machine is.
@Suite("RunStore contract: shared pace")
struct RunStorePaceTests {
    let hub = "http://127.0.0.1:9/hub-a/"

    @Test(
        "consecutive reservations of one budget from two handles follow each other at its rate",
        arguments: StoreKind.all)
    func budgetAcrossHandles(_ kind: StoreKind) async throws {
        try await withStore(kind) { first, reopen in
            let second = try await reopen()
            let budget = PaceBudget(key: "hub \(hub)", rate: 2)
            let clock = ContinuousClock()
            let start = clock.now
            let a = try #require(await first.reserve(hub: hub, budget: budget, count: 4))
            let b = try #require(await second.reserve(hub: hub, budget: budget, count: 4))
            let c = try #require(await first.reserve(hub: hub, budget: budget, count: 2))
            let elapsed = seconds(clock.now - start)
            // 4 slots at 2 a second last 2 s: the second block starts 2 s after the first, the third 4 s after it.
            #expect(a <= 0.01)
            #expect(b <= 2.01 && b >= 2 - elapsed - 0.01, "b=\(b) elapsed=\(elapsed)")
            #expect(c <= 4.01 && c >= 4 - elapsed - 0.01, "c=\(c) elapsed=\(elapsed)")
            // Another budget is not held back by this one.
            #expect(
                try #require(
                    await second.reserve(hub: hub, budget: PaceBudget(key: "run x step 1 \(hub)", rate: 2), count: 4))
                    <= 0.01)
        }
    }

    @Test(
        "a pause one handle records holds back the other's reservations, is never shortened, and is the hub's alone",
        arguments: StoreKind.all)
    func pauseAcrossHandles(_ kind: StoreKind) async throws {
        try await withStore(kind) { first, reopen in
            let second = try await reopen()
            #expect(await second.reserve(hub: hub, budget: nil, count: 0) == 0)
            let clock = ContinuousClock()
            let start = clock.now
            await first.pause(hub: hub, seconds: 30)
            await first.pause(hub: hub, seconds: 5)
            let left = try #require(await second.reserve(hub: hub, budget: nil, count: 0))
            let slot = try #require(
                await second.reserve(hub: hub, budget: PaceBudget(key: "hub \(hub)", rate: 10), count: 5))
            let elapsed = seconds(clock.now - start)
            #expect(left <= 30.01 && left >= 30 - elapsed - 0.01, "left=\(left)")
            #expect(slot <= 30.01 && slot >= 30 - elapsed - 0.01, "slot=\(slot)")
            // The next block follows the first, after the pause.
            let next = try #require(
                await first.reserve(hub: hub, budget: PaceBudget(key: "hub \(hub)", rate: 10), count: 5))
            #expect(next >= 30.5 - seconds(clock.now - start) - 0.01 && next <= 30.51, "next=\(next)")
            #expect(await first.reserve(hub: "http://127.0.0.1:9/hub-b/", budget: nil, count: 0) == 0)
            #expect(
                try #require(
                    await first.reserve(
                        hub: "http://127.0.0.1:9/hub-b/", budget: PaceBudget(key: "hub b", rate: 10),
                        count: 5)) <= 0.01)
        }
    }

    @Test("a budget idle for a while does not bank its unused slots", arguments: StoreKind.all)
    func noBanking(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let budget = PaceBudget(key: "hub \(hub)", rate: 20)
            #expect(try #require(await store.reserve(hub: hub, budget: budget, count: 2)) <= 0.01)
            try await Task.sleep(for: .milliseconds(300))
            // The first block ended 0.1 s after it began; 0.3 s later a new block starts now, not in the past.
            let clock = ContinuousClock()
            let start = clock.now
            let wait = try #require(await store.reserve(hub: hub, budget: budget, count: 2))
            let after = try #require(await store.reserve(hub: hub, budget: budget, count: 2))
            let elapsed = seconds(clock.now - start)
            #expect(wait <= 0.01)
            // The block after it follows 0.1 s after its start, less the time the calls took.
            #expect(after >= 0.1 - elapsed - 0.01 && after <= 0.101, "after=\(after) elapsed=\(elapsed)")
        }
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
