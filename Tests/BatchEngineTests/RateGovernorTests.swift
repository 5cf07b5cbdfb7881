import PipelineCore
import RunStore
import Synchronization
import Testing

@testable import BatchEngine

/// A `HubPace` that records what it is asked and answers from a script: `pauses` answers reservations
/// without a budget in turn (then 0), `slotWait` those with one (nil: the store cannot be asked).
final class RecordingPace: HubPace {
    struct Reservation: Equatable {
        var budget: String?
        var count: Int
    }

    let reservations = Mutex<[Reservation]>([])
    let pausesRecorded = Mutex<[Double]>([])
    let pauses: Mutex<[Double]>
    let slotWait: Double?

    init(pauses: [Double] = [], slotWait: Double? = 0) {
        self.pauses = Mutex(pauses)
        self.slotWait = slotWait
    }

    func reserve(hub: String, budget: PaceBudget?, count: Int) async -> Double? {
        reservations.withLock { $0.append(Reservation(budget: budget?.key, count: count)) }
        guard budget != nil else { return pauses.withLock { $0.isEmpty ? 0 : $0.removeFirst() } }
        return slotWait
    }

    func pause(hub: String, seconds: Double) async {
        pausesRecorded.withLock { $0.append(seconds) }
    }
}

/// The real time, or an instant held while `stop()` is in force.
private final class StoppableTime: Sendable {
    private let held = Mutex<ContinuousClock.Instant?>(nil)

    var now: @Sendable () -> ContinuousClock.Instant { { [self] in held.withLock { $0 } ?? .now } }
    func stop() { held.withLock { $0 = .now } }
    func resume() { held.withLock { $0 = nil } }
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Waits are checked from below only (a slow machine makes them longer, never shorter); counts of store calls
/// are exact.
@Suite struct RateGovernorTests {
    let hub = "http://127.0.0.1:9/hub/"

    @Test(
        "a throttling the transport reports holds back every new request for the wait, and is recorded in the store once"
    )
    func throttlingPausesAndIsShared() async {
        let pace = RecordingPace()
        let time = StoppableTime()
        let governor = RateGovernor(
            ceiling: nil, shared: SharedPacing(pace: pace, hub: hub, budgets: []), now: time.now)
        await governor.acquire()
        let clock = ContinuousClock()
        let start = clock.now
        // Three requests in flight meet the same 429 at one instant (a loaded machine must not spread them apart).
        time.stop()
        await governor.throttled(for: 0.4)
        await governor.throttled(for: 0.4)
        await governor.throttled(for: 0.35)
        time.resume()
        #expect(pace.pausesRecorded.withLock { $0 } == [0.4])
        await governor.acquire()
        #expect(seconds(clock.now - start) >= 0.4)
    }

    @Test("without a store the pause is this process's alone, and still kept")
    func localPause() async {
        let governor = RateGovernor(ceiling: nil)
        let clock = ContinuousClock()
        let start = clock.now
        await governor.throttled(for: 0.3)
        await governor.acquire()
        #expect(seconds(clock.now - start) >= 0.3)
    }

    @Test("a pause another process recorded is read from the store and waited, at most every 250 ms")
    func pauseFromAnotherProcess() async {
        let pace = RecordingPace(pauses: [0.4])
        let governor = RateGovernor(ceiling: nil, shared: SharedPacing(pace: pace, hub: hub, budgets: []))
        let clock = ContinuousClock()
        let start = clock.now
        await governor.acquire()
        let waited = seconds(clock.now - start)
        #expect(waited >= 0.35)
        // Calls within the poll interval do not ask again.
        let asked = pace.reservations.withLock { $0.count }
        let burst = clock.now
        for _ in 0..<20 { await governor.acquire() }
        if clock.now - burst < .milliseconds(250) {
            #expect(pace.reservations.withLock { $0.count } <= asked + 1)
        }
        #expect(pace.reservations.withLock { $0 }.allSatisfy { $0 == RecordingPace.Reservation(budget: nil, count: 0) })
    }

    @Test("budget slots are reserved a quarter second's worth at a time, one store call per block, for every budget")
    func blocks() async {
        let pace = RecordingPace()
        let budgets = [PaceBudget(key: "hub h", rate: 400), PaceBudget(key: "run r step 1 h", rate: 1000)]
        let governor = RateGovernor(ceiling: nil, shared: SharedPacing(pace: pace, hub: hub, budgets: budgets))
        for _ in 0..<130 { await governor.acquire() }
        let made = pace.reservations.withLock { $0 }
        // 400/s: blocks of 64 (capped), so 130 requests take 3; 1000/s likewise.
        #expect(made.filter { $0.budget == "hub h" } == Array(repeating: .init(budget: "hub h", count: 64), count: 3))
        #expect(made.filter { $0.budget == "run r step 1 h" }.count == 3)
        #expect(RateGovernor.blockSize(2) == 1 && RateGovernor.blockSize(40) == 10 && RateGovernor.blockSize(1e5) == 64)
    }

    @Test("slots within a block are spaced at the budget's rate, after the wait the store gave")
    func slotsFollowTheStore() async {
        let pace = RecordingPace(slotWait: 0.2)
        let governor = RateGovernor(
            ceiling: nil, shared: SharedPacing(pace: pace, hub: hub, budgets: [PaceBudget(key: "b", rate: 20)]))
        let clock = ContinuousClock()
        let start = clock.now
        // Block of 5 at 20/s: the 5th slot is 0.2 s after the first, which is 0.2 s off.
        for _ in 0..<5 { await governor.acquire() }
        #expect(seconds(clock.now - start) >= 0.38)
        #expect(pace.reservations.withLock { $0.count } == 1)
    }

    @Test("concurrent callers share one reservation rather than each making their own")
    func concurrentCallersShareARefill() async {
        let pace = RecordingPace()
        let governor = RateGovernor(
            ceiling: nil, shared: SharedPacing(pace: pace, hub: hub, budgets: [PaceBudget(key: "b", rate: 256)]))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<64 { group.addTask { await governor.acquire() } }
        }
        #expect(pace.reservations.withLock { $0.count } == 1)
    }

    @Test("a store that cannot be asked leaves the pace to this process: requests still go, at the budget's rate")
    func storeDown() async {
        let pace = RecordingPace(slotWait: nil)
        let governor = RateGovernor(
            ceiling: nil, shared: SharedPacing(pace: pace, hub: hub, budgets: [PaceBudget(key: "b", rate: 40)]))
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<21 { await governor.acquire() }
        #expect(seconds(clock.now - start) >= 0.45)
    }
}
