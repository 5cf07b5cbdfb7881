import Synchronization
import Testing

@testable import PostgresRunStore

/// The bound on every store call, without a server: a call past its limit fails at once, and what its work
/// produces afterwards (a connection made late) is handed over to be disposed of, never dropped.
@Suite("A store call's time limit")
struct StoreCallBoundTests {
    @Test("a result that comes after the limit fails the call, and is handed to `late` once it comes")
    func aLateResultIsDisposedOf() async throws {
        let disposed = Mutex<[Int]>([])
        let clock = ContinuousClock()
        await #expect(throws: StoreDeadline.self) {
            try await Bounded.within(.milliseconds(50), late: { value in disposed.withLock { $0.append(value) } }) {
                // Work that finishes with a value although it was cancelled at the limit, as a connection attempt can.
                try? await Task.sleep(for: .milliseconds(400))
                return 7
            }
        }
        let deadline = clock.now + .seconds(30)
        while disposed.withLock({ $0.isEmpty }), clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(disposed.withLock { $0 } == [7])
    }

    @Test("a result within the limit is the call's, and is not disposed of")
    func aTimelyResultIsReturned() async throws {
        let disposed = Mutex<[Int]>([])
        let value = try await Bounded.within(
            .seconds(30), late: { value in disposed.withLock { $0.append(value) } }
        ) { 7 }
        #expect(value == 7)
        try await Task.sleep(for: .milliseconds(50))
        #expect(disposed.withLock { $0 }.isEmpty)
    }
}
