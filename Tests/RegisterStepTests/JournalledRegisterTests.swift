import Foundation
import HubWire
import PipelineCore
import RunStore
import Synchronization
import TestSupport
import Testing

@testable import RegisterStep

private func journalled(
    _ transport: any HubTransport, ledger: MemoryLedger, resume: Bool = false,
    stop: StopSignal = StopSignal()
) -> StepContext {
    var context = context(transport)
    context.batch = BatchControl(ledger: ledger, isResume: resume, stop: stop)
    return context
}

private let fcmHandles = (1...4).map { "\(fcmToken)\($0)" }

/// Four native FCM registrations without ids (each asks the hub for one).
private func fourRegistrations() throws -> RegisterStep {
    try built([
        ("hub", scalar("tutorial")),
        (
            "registrations",
            list(
                fcmHandles.map { handle in
                    mapping([("platform", scalar("fcmv1")), ("handle", scalar(handle))])
                })
        ),
    ])
}

@Suite struct JournalledRegisterTests {
    /// A ledger whose other runs did what `first` did, in state `state`, with registration ids `ids`.
    private func sentElsewhere(like first: MemoryLedger, state: ItemState, ids: [String?]? = nil) -> MemoryLedger {
        let ledger = MemoryLedger()
        for (item, key) in first.keys.withLock({ $0 }) {
            ledger.otherRuns.withLock {
                $0[key] = PriorSend(
                    runId: "r0", at: Date().timeIntervalSince1970, state: state, origin: "row \(item.row)",
                    sameRun: false,
                    notificationId: ids?[item.row - 1] ?? first[item.row]?.notificationId)
            }
        }
        return ledger
    }

    @Test func aRegistrationAnotherRunMadeWithinTheWindowIsNotMadeAgain() async throws {
        let first = MemoryLedger()
        _ = try await fourRegistrations().run(in: journalled(ScriptedTransport(), ledger: first))
        let transport = ScriptedTransport()
        let result = try await fourRegistrations().run(
            in: journalled(transport, ledger: sentElsewhere(like: first, state: .accepted)))
        #expect(transport.requests.isEmpty)
        #expect(result.items == ItemCounts(duplicates: 4))
    }

    @Test func aRegistrationAnotherRunLeftUnknownIsUpsertedUnderItsJournalledId() async throws {
        let first = MemoryLedger()
        _ = try await fourRegistrations().run(in: journalled(ScriptedTransport(), ledger: first))
        let transport = ScriptedTransport()
        let ledger = sentElsewhere(like: first, state: .sending, ids: ["old-1", "old-2", "old-3", "old-4"])
        let result = try await fourRegistrations().run(in: journalled(transport, ledger: ledger))
        #expect(result.items == ItemCounts(accepted: 4))
        // No new registration id is asked for: the ids the other run obtained are upserted again.
        #expect(Set(transport.requests.map(\.summary)) == Set((1...4).map { "PUT registration 'old-\($0)'" }))
        #expect(Set((1...4).compactMap { ledger[$0]?.notificationId }) == ["old-1", "old-2", "old-3", "old-4"])
    }

    @Test func installationsAreWrittenWhateverAnotherRunWrote() async throws {
        let step = try built([
            ("hub", scalar("tutorial")),
            (
                "installations",
                list([
                    mapping([
                        ("installationId", scalar("d1")), ("platform", scalar("fcmv1")),
                        ("pushChannel", scalar("token-1")),
                    ])
                ])
            ),
        ])
        let first = MemoryLedger()
        _ = try await step.run(in: journalled(ScriptedTransport(), ledger: first))
        #expect(first.keys.withLock { $0.count } == 1)
        let transport = ScriptedTransport()
        _ = try await step.run(in: journalled(transport, ledger: sentElsewhere(like: first, state: .accepted)))
        #expect(transport.requests.map(\.summary) == ["PUT installation 'd1'"])
    }

    @Test func aRegistrationWhoseGivenIdWasGoneIsResumedUnderTheIdThatReplacedIt() async throws {
        let step = try built([
            ("hub", scalar("tutorial")),
            (
                "registrations",
                list([
                    mapping([("platform", scalar("fcmv1")), ("handle", scalar(fcmToken)), ("id", scalar("stale-1"))])
                ])
            ),
        ])
        let gone = HubResponse(
            status: 410,
            body: Array("<Error><Code>410</Code><Detail>Gone.TrackingId:x,TimeStamp:y</Detail></Error>".utf8))
        let ledger = MemoryLedger()
        let first = ScriptedTransport { request, _ in
            request.summary == "PUT registration 'stale-1'" ? .success(gone) : nil
        }
        _ = try await step.run(in: journalled(first, ledger: ledger))
        #expect(
            first.requests.map(\.summary) == [
                "PUT registration 'stale-1'", "POST registrationIDs", "PUT registration 'reg-1'",
            ])
        // Killed after the upsert, before its outcome was journalled: the journal shows it sending, under reg-1.
        ledger.entries.withLock { $0[LedgerKey(step: 1, row: 1)]?.state = .sending }
        let again = ScriptedTransport { request, _ in
            request.summary == "PUT registration 'stale-1'" ? .success(gone) : nil
        }
        let result = try await step.run(in: journalled(again, ledger: ledger, resume: true))
        #expect(
            again.requests.map(\.summary) == ["PUT registration 'reg-1'"],
            "the given id is gone; asking again would make a second registration")
        #expect(result.data.outcomes == ["stale-1": "created"])
        #expect(ledger[1]?.notificationId == "reg-1" && ledger[1]?.state == .accepted)
    }

    @Test func eachDeviceIsJournalledWithTheRegistrationIdItGot() async throws {
        let ledger = MemoryLedger()
        let transport = ScriptedTransport()
        let result = try await fourRegistrations().run(in: journalled(transport, ledger: ledger))
        #expect(result.items == ItemCounts(accepted: 4))
        let ids = Set((1...4).compactMap { ledger[$0]?.notificationId })
        #expect(ids == ["reg-1", "reg-2", "reg-3", "reg-4"])
        #expect((1...4).allSatisfy { ledger[$0]?.state == .accepted && ledger[$0]?.attempts == 1 })
    }

    @Test func theRegistrationIdIsJournalledBeforeTheRegistrationIsWritten() async throws {
        let ledger = MemoryLedger()
        let seenAtPut = Mutex<[String: String?]>([:])
        let transport = ScriptedTransport { request, _ in
            guard request.method == .put,
                let id = request.url.split(separator: "?")[0].split(separator: "/").last.map(String.init)
            else { return nil }
            let journalled = (1...4).compactMap { ledger[$0] }.first { $0.notificationId == id }
            seenAtPut.withLock { $0[id] = journalled?.state.rawValue }
            return nil
        }
        _ = try await fourRegistrations().run(in: journalled(transport, ledger: ledger))
        #expect(
            seenAtPut.withLock { $0 } == [
                "reg-1": "sending", "reg-2": "sending", "reg-3": "sending", "reg-4": "sending",
            ])
    }

    @Test func aResumeSkipsDoneDevicesAndUpsertsJournalledIdsInsteadOfCreatingNewOnes() async throws {
        let step = try fourRegistrations()
        // A first attempt: every device done, to learn the digests the journal holds.
        let first = MemoryLedger()
        _ = try await step.run(in: journalled(ScriptedTransport(), ledger: first))
        let ledger = MemoryLedger()
        ledger.entries.withLock { entries in
            func put(_ row: Int, _ state: ItemState, id: String? = nil, error: String? = nil, retriable: Bool = false) {
                let key = LedgerKey(step: 1, row: row)
                entries[key] = LedgerEntry(
                    key: key, digest: first[row]!.digest, state: state, attempts: 1, notificationId: id,
                    error: error, retriable: retriable)
            }
            put(1, .accepted, id: "reg-old-1")
            put(2, .sending, id: "reg-old-2")  // cut off after the id was journalled: the PUT may have landed
            put(3, .failed, error: "PUT registration: 400 Bad Request")
            put(4, .failed, id: "reg-old-4", error: "503", retriable: true)
        }
        let transport = ScriptedTransport()
        let failure = try await failure(of: step, in: journalled(transport, ledger: ledger, resume: true))
        #expect(
            transport.requests.map(\.summary).sorted() == [
                "PUT registration 'reg-old-2'", "PUT registration 'reg-old-4'",
            ])
        #expect(failure.message.contains("2 ok, 1 failed, 1 done by an earlier attempt"))
        #expect(failure.lines.first == "\(fcmHandles[2]): PUT registration: 400 Bad Request")
        #expect(ledger[2]?.state == .accepted && ledger[2]?.notificationId == "reg-old-2")
        #expect(ledger[4]?.state == .accepted && ledger[4]?.attempts == 2)
        #expect(
            failure.data.outcomes == [
                fcmHandles[0]: "skipped", fcmHandles[1]: "created", fcmHandles[2]: "failed",
                fcmHandles[3]: "created",
            ])
    }

    @Test func aDeviceWhoseContentChangedIsNotSentOnResume() async throws {
        let ledger = MemoryLedger()
        let key = LedgerKey(step: 1, row: 1)
        ledger.entries.withLock { $0[key] = LedgerEntry(key: key, digest: "other", state: .sending, attempts: 1) }
        let step = try built([
            ("hub", scalar("tutorial")),
            (
                "installations",
                list([
                    mapping([
                        ("installationId", scalar("a")), ("platform", scalar("fcmv1")),
                        ("pushChannel", scalar(fcmToken)),
                    ])
                ])
            ),
        ])
        let transport = ScriptedTransport()
        let failure = try await failure(of: step, in: journalled(transport, ledger: ledger, resume: true))
        #expect(transport.requests.isEmpty)
        #expect(failure.lines == ["a: the device differs from the one an earlier attempt journalled; not sent"])
    }

    @Test func retriableFailuresAreJournalledSoAResumeRetriesThem() async throws {
        let ledger = MemoryLedger()
        let transport = ScriptedTransport { request, _ in
            request.method == .put ? .success(HubResponse(status: 503)) : nil
        }
        _ = try await failure(of: fourRegistrations(), in: journalled(transport, ledger: ledger))
        #expect(
            (1...4).allSatisfy {
                ledger[$0]?.state == .failed && ledger[$0]?.retriable == true && ledger[$0]?.notificationId != nil
            })
    }

    @Test func aStopSignalEndsAdmissionAndTheStepSaysItWasInterrupted() async throws {
        let ledger = MemoryLedger()
        let stop = StopSignal()
        let transport = ScriptedTransport { _, number in
            if number == 2 { stop.request() }
            return nil
        }
        let step = try built([
            ("hub", scalar("tutorial")), ("concurrency", scalar("1")),
            (
                "installations",
                list(
                    (1...5).map { n in
                        mapping([
                            ("installationId", scalar("d\(n)")), ("platform", scalar("fcmv1")),
                            ("pushChannel", scalar(fcmToken)),
                        ])
                    })
            ),
        ])
        let result = try await step.run(in: journalled(transport, ledger: ledger, stop: stop))
        #expect(result.interrupted)
        #expect(transport.requests.count == 2)
        #expect(result.items == ItemCounts(accepted: 2))
        #expect(result.summary.hasSuffix("stopped by a signal before the last device"))
        #expect(ledger[3] == nil)
    }

    @Test func aThousandResultsAreKeptAndEveryDeviceIsCounted() async throws {
        let rows = (1...1500).map { "d\($0),fcmv1,\(fcmToken)" }.joined(separator: "\n")
        let folder = try directory(with: ["devices.csv": "installationId,platform,pushChannel\n" + rows + "\n"])
        let step = try built([("hub", scalar("tutorial")), ("installations", scalar(folder + "/devices.csv"))])
        let result = try await step.run(in: journalled(ScriptedTransport(), ledger: MemoryLedger()))
        #expect(result.items == ItemCounts(accepted: 1500))
        guard case .array(let kept) = result.data else {
            Issue.record("no device list")
            return
        }
        #expect(kept.count == RegisterReport.keptResults)
        #expect(result.lines.contains { $0.contains("lists the first 1000 devices") })
    }

    @Test func aRunStoppedBySignalAfterAFailureIsInterruptedNotFailed() async throws {
        let stop = StopSignal()
        let transport = ScriptedTransport { _, number in
            if number == 2 { stop.request() }
            return number == 1 ? .success(HubResponse(status: 400)) : nil
        }
        let step = try built([
            ("hub", scalar("tutorial")), ("concurrency", scalar("1")),
            (
                "installations",
                list(
                    (1...5).map { n in
                        mapping([
                            ("installationId", scalar("d\(n)")), ("platform", scalar("fcmv1")),
                            ("pushChannel", scalar(fcmToken)),
                        ])
                    })
            ),
        ])
        let result = try await step.run(in: journalled(transport, ledger: MemoryLedger(), stop: stop))
        #expect(result.interrupted)
        #expect(result.items == ItemCounts(accepted: 1, failed: 1))
        #expect(result.lines.first?.hasPrefix("d1: PUT installation 'd1'") == true)
    }
}

@Suite struct DeclaredKeyRegisterTests {
    /// Rows of users and their FCM handles, registered without ids (so each one is held back by its key).
    private func registrations(_ rows: String, key: String?) throws -> RegisterStep {
        let file = try directory(with: ["users.csv": "user,token\n" + rows]) + "/users.csv"
        return try built(
            [("hub", scalar("tutorial")), ("for-each", scalar(file))]
                + (key.map { [("idempotency-key", scalar($0))] } ?? [])
                + [
                    (
                        "registrations",
                        list([
                            mapping([
                                ("platform", scalar("fcmv1")), ("handle", scalar("$(token)")),
                                ("tags", list([scalar("$UserId:{$(user)}")])),
                            ])
                        ])
                    )
                ])
    }

    @Test func aDeclaredKeyIsTheRowsNotTheContentsAndIsScopedToThePipelineAndStep() async throws {
        let first = MemoryLedger()
        _ = try await registrations("alice,\(fcmToken)1\nbob,\(fcmToken)2\n", key: "reg-$(user)").run(
            in: journalled(ScriptedTransport(), ledger: first))
        #expect(Set(first.keys.withLock { $0.values }) == ["p/step1:reg-alice", "p/step1:reg-bob"])
        // Alice's handle changed: by her declared key she was registered already, so nothing new is made for her…
        let transport = ScriptedTransport()
        let result = try await registrations("alice,\(fcmToken)9\ncarol,\(fcmToken)3\n", key: "reg-$(user)")
            .run(in: journalled(transport, ledger: sentElsewhere(like: first)))
        #expect(result.items == ItemCounts(accepted: 1, duplicates: 1))
        // …while by the default key (the registration's content) the changed handle is a new registration.
        let byContent = MemoryLedger()
        _ = try await registrations("alice,\(fcmToken)1\n", key: nil).run(
            in: journalled(ScriptedTransport(), ledger: byContent))
        let made = ScriptedTransport()
        _ = try await registrations("alice,\(fcmToken)9\n", key: nil).run(
            in: journalled(made, ledger: sentElsewhere(like: byContent)))
        #expect(
            made.requests.map(\.method.rawValue) == ["POST", "PUT"], "a new registration id, then the registration")
    }

    @Test func theKeyAndTheShardKeyNeedRowsAndTheirColumns() throws {
        let file = try directory(with: ["users.csv": "user,token\nalice,\(fcmToken)1\n"]) + "/users.csv"
        let entry = list([mapping([("platform", scalar("fcmv1")), ("handle", scalar("$(token)"))])])
        #expect(
            build([
                ("hub", scalar("tutorial")), ("for-each", scalar(file)), ("idempotency-key", scalar("reg-$(usr)")),
                ("shard-key", scalar("team")), ("registrations", entry),
            ]).1.map(\.message) == [
                "the step reads column 'usr', which the header of '\(file)' does not have; did you mean 'user'?",
                "the step reads column 'team', which the header of '\(file)' does not have",
            ])
        #expect(
            build([
                ("hub", scalar("tutorial")), ("shard-key", scalar("user")),
                ("registrations", list([mapping([("platform", scalar("fcmv1")), ("handle", scalar(fcmToken))])])),
            ]).1.map(\.message)
                == ["'shard-key' applies only with 'for-each': they read the columns of the rows"])
    }

    @Test func aShardKeyKeepsEveryDeviceOfAUserInOnePart() async throws {
        let rows = (1...60).map { "ipad-\($0),\(apnsToken),u\($0 % 20)" }
        let file =
            try directory(with: ["devices.csv": "id,token,user\n" + rows.joined(separator: "\n") + "\n"])
            + "/devices.csv"
        let step = try built([
            ("hub", scalar("tutorial")), ("for-each", scalar(file)), ("shard-key", scalar("user")),
            (
                "installations",
                list([
                    mapping([
                        ("installationId", scalar("$(id)")), ("platform", scalar("apns")),
                        ("pushChannel", scalar("$(token)")), ("userId", scalar("$(user)")),
                    ])
                ])
            ),
        ])
        var usersByPart: [Set<String>] = []
        var devices: [String] = []
        for index in 0..<3 {
            let transport = ScriptedTransport()
            var part = context(transport)
            part.batch = BatchControl(shard: Shard(index: index, count: 3))
            _ = try await step.run(in: part)
            let sent = try transport.requests.map { try JSONDecoder().decode(Installation.self, from: Data($0.body)) }
            devices += sent.map(\.installationId)
            usersByPart.append(Set(sent.compactMap(\.userId)))
        }
        #expect(devices.count == 60 && Set(devices).count == 60, "the parts are disjoint and cover every row")
        #expect(usersByPart.map(\.count).reduce(0, +) == 20, "no user in two parts")
        #expect(usersByPart.allSatisfy { !$0.isEmpty })
    }

    /// Other runs of the journal did what `first` did and were accepted.
    private func sentElsewhere(like first: MemoryLedger) -> MemoryLedger {
        let ledger = MemoryLedger()
        for (item, key) in first.keys.withLock({ $0 }) {
            ledger.otherRuns.withLock {
                $0[key] = PriorSend(
                    runId: "r0", at: Date().timeIntervalSince1970, state: .accepted, origin: "row \(item.row)",
                    sameRun: false,
                    notificationId: first[item.row]?.notificationId)
            }
        }
        return ledger
    }
}
