import HTTPTypes
import Synchronization
import Testing

@testable import PushService

/// The order password checks run in when more are asked for than may run at once. The tests hold the one check slot,
/// queue requests, then let go, and look at who ran first: an order, never a time.
@Suite struct SignInAdmissionTests {
    /// What the requests saw, shared by the tasks that make them.
    final class Record<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        func update(_ change: (inout Value) -> Void) { value.withLock { change(&$0) } }
        var current: Value { value.withLock { $0 } }
    }

    /// Waits until `count` requests wait for a check.
    func waiting(_ admission: SignInAdmission, _ count: Int) async {
        while admission.waitingCount < count { await Task.yield() }
    }

    @Test func aFreshAddressGoesBeforeEveryRequestOfAnAddressThatKeepsFailing() async {
        let admission = SignInAdmission(capacity: 1, maxWaiting: 100, maxWait: .seconds(600), clock: { 1_000 })
        #expect(await admission.enter(address: "holder"))
        for _ in 0..<5 { admission.failed(address: "203.0.113.9") }
        admission.failed(address: "203.0.113.10")
        let order = Record<[String]>([])
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<10 {
                let address = index.isMultiple(of: 2) ? "203.0.113.9" : "203.0.113.10"
                group.addTask {
                    guard await admission.enter(address: address) else { return }
                    order.update { $0.append(address) }
                    admission.leave()
                }
            }
            await waiting(admission, 10)
            group.addTask {
                guard await admission.enter(address: "198.51.100.7") else { return }
                order.update { $0.append("user") }
                admission.leave()
            }
            await waiting(admission, 11)
            admission.leave()
        }
        let ran = order.current
        #expect(ran.count == 11)
        // The user first, then the address with one failure, then the one with five.
        #expect(
            ran == ["user"] + Array(repeating: "203.0.113.10", count: 5) + Array(repeating: "203.0.113.9", count: 5),
            "\(ran)")
    }

    @Test func aFullQueueRefusesTheWorstRankedRequestNeverABetterOne() async {
        let admission = SignInAdmission(capacity: 1, maxWaiting: 2, maxWait: .seconds(600), clock: { 1_000 })
        #expect(await admission.enter(address: "holder"))
        for _ in 0..<3 { admission.failed(address: "attacker") }
        let answers = Record<[String: Bool]>([:])
        await withTaskGroup(of: Void.self) { group in
            for name in ["first", "second"] {
                group.addTask {
                    let ran = await admission.enter(address: "attacker")
                    answers.update { $0[name] = ran }
                    if ran { admission.leave() }
                }
                await waiting(admission, name == "first" ? 1 : 2)
            }
            // The queue is full of failing requests: a user's takes the place of the latest of them, which is refused.
            group.addTask {
                let ran = await admission.enter(address: "user")
                answers.update { $0["user"] = ran }
                if ran { admission.leave() }
            }
            while answers.current["second"] != false || admission.waitingCount != 2 { await Task.yield() }
            // Another failing request ranks no better than any waiting: refused at once, without waiting.
            #expect(await admission.enter(address: "attacker") == false)
            admission.leave()
        }
        #expect(answers.current == ["first": true, "second": false, "user": true])
    }

    @Test func aRequestThatWaitsTooLongIsAnsweredBusyAndTheSlotsStayCounted() async {
        let admission = SignInAdmission(capacity: 2, maxWaiting: 10, maxWait: .milliseconds(50), clock: { 1_000 })
        #expect(await admission.enter(address: "a"))
        #expect(await admission.enter(address: "b"))
        #expect(await admission.enter(address: "c") == false)
        #expect(admission.waitingCount == 0)
        admission.leave()
        #expect(await admission.enter(address: "c"))
        admission.leave()
        admission.leave()
    }

    @Test func failuresCountOnlyWithinTheirWindow() async {
        let now = Record(1_000.0)
        let admission = SignInAdmission(
            capacity: 1, maxWaiting: 10, maxWait: .seconds(600), failureWindow: 300, clock: { now.current })
        for _ in 0..<4 { admission.failed(address: "old") }
        now.update { $0 += 301 }
        admission.failed(address: "recent")
        #expect(await admission.enter(address: "holder"))
        let order = Record<[String]>([])
        await withTaskGroup(of: Void.self) { group in
            for address in ["recent", "old"] {
                group.addTask {
                    guard await admission.enter(address: address) else { return }
                    order.update { $0.append(address) }
                    admission.leave()
                }
                await waiting(admission, address == "recent" ? 1 : 2)
            }
            admission.leave()
        }
        // The old failures have expired: "old" now ranks above "recent", though it asked later.
        #expect(order.current == ["old", "recent"])
    }
}
