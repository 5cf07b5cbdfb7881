import Foundation
import HTTPTypes
import HubEmulator
import Synchronization
import Testing

/// Restart with `--state`: what one emulator saved, the next one serves.
@Suite("State file")
struct StateTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("hub-emulator-tests-\(UUID().uuidString)")
            .appendingPathComponent("state.json").path
    }

    @Test("installations, registrations (with ETag) and pending scheduled sends survive a restart")
    func restart() async throws {
        let path = Self.temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let clock = TestClock()

        let registration = LockedBox<String>("")
        try await withEmulator(statePath: path, clock: clock) { client, emulator async throws in
            #expect(try await client.putInstallation("keep-1", seedInstallation(id: "keep-1")).status == 200)
            let id = try await RegistrationTests.newRegistrationId(client)
            registration.set(id)
            _ = try await RegistrationTests.put(
                client, id, appleRegistrationEntry(token: apnsToken(0xA11CE), tags: "username:alice"))
            let second = try await RegistrationTests.put(
                client, id, appleRegistrationEntry(token: apnsToken(0xA11CE), tags: "username:alice"))
            RegistrationTests.expectEntry(second, id: id, etag: 2)
            _ = ScheduleTests.scheduledId(
                try await ScheduleTests.schedule(client, at: ScheduleTests.format(clock.now.addingTimeInterval(600))))
            try await emulator.saveState()
        }
        #expect(FileManager.default.fileExists(atPath: path))

        try await withEmulator(statePath: path, clock: clock) { client, emulator async throws in
            let installation = try #require(try await client.getInstallation("keep-1").json as? [String: Any])
            #expect(installation["tags"] as? [String] == ["12345"])
            #expect(
                ((installation["templates"] as? [String: Any])?["genericTemplate"] as? [String: Any])?["body"]
                    as? String
                    == #"{"aps":{"alert":"$(message)"}}"#)

            let id = registration.get()
            let get = try await client.request(.get, "/myhub/registrations/\(id)?\(NH.api)", auth: Token.listen())
            RegistrationTests.expectEntry(get, id: id, etag: 2, read: true)
            // The ETag keeps counting from where it was.
            let third = try await RegistrationTests.put(
                client, id, appleRegistrationEntry(token: apnsToken(0xA11CE), tags: "username:alice"),
                ifMatch: "\"2\"")
            RegistrationTests.expectEntry(third, id: id, etag: 3)
            // Fresh registration ids do not collide with restored ones.
            #expect(try await RegistrationTests.newRegistrationId(client) != id)

            #expect(
                try await client.sendNative("apple", #"{"aps":{"alert":"after restart"}}"#, tags: "username:alice")
                    .status == 201)
            #expect(try await client.sendTemplate(#"{"message":"restored"}"#, tags: "12345").status == 201)
            clock.advance(601)
            #expect(await emulator.sendDueNotifications() == 1)
            let payloads = try await client.deliveries().compactMap { $0["payload"] as? String }
            #expect(
                payloads == [
                    #"{"aps":{"alert":"after restart"}}"#, #"{"aps":{"alert":"restored"}}"#,
                    #"{"aps":{"alert":"Later"}}"#,
                ])
        }
    }

    @Test("saves at the same moment (the periodic one and the one at shutdown) all succeed and leave no temporary file")
    func concurrentSavesDoNotRace() async throws {
        let path = Self.temporaryPath()
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await withEmulator(statePath: path) { client, emulator async throws in
            #expect(try await client.putInstallation("seed-1", seedInstallation(id: "seed-1")).status == 200)
            // Before each save had a temporary file of its own, two at once wrote the same one and the second
            // rename failed: the flaky exit 1 of `pushline emulator` stopped right after a change.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<16 { group.addTask { try await emulator.saveState() } }
                try await group.waitForAll()
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tmp-") }.isEmpty)
        }
        try await withEmulator(statePath: path) { client, _ async throws in
            #expect(try await client.getInstallation("seed-1").status == 200)
        }
    }

    @Test("a deleted installation stays deleted after a restart")
    func deletionPersists() async throws {
        let path = Self.temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        try await withEmulator(statePath: path) { client, emulator async throws in
            #expect(try await client.putInstallation("gone-1", seedInstallation(id: "gone-1")).status == 200)
            #expect(try await client.putInstallation("stay-1", seedInstallation(id: "stay-1")).status == 200)
            try await emulator.saveState()
            #expect(
                try await client.request(.delete, "/myhub/installations/gone-1?\(NH.api)", auth: Token.full()).status
                    == 204)
            try await emulator.saveState()
        }
        try await withEmulator(statePath: path) { client, _ async throws in
            #expect(try await client.getInstallation("gone-1").status == 404)
            #expect(try await client.getInstallation("stay-1").status == 200)
        }
    }

    @Test("after a restart: a fired scheduled send does not fire again, a cancelled one stays cancelled")
    func schedulesAcrossRestart() async throws {
        let path = Self.temporaryPath()
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = TestClock()
        try await withEmulator(statePath: path, clock: clock) { client, emulator async throws in
            #expect(try await client.putInstallation("s-1", seedInstallation(id: "s-1")).status == 200)
            _ = ScheduleTests.scheduledId(
                try await ScheduleTests.schedule(
                    client, at: ScheduleTests.format(clock.now.addingTimeInterval(60)),
                    body: #"{"message":"fired"}"#))
            let cancelled = try #require(
                ScheduleTests.scheduledId(
                    try await ScheduleTests.schedule(
                        client, at: ScheduleTests.format(clock.now.addingTimeInterval(600)),
                        body: #"{"message":"cancelled"}"#)))
            #expect(
                try await client.request(
                    .delete, "/myhub/schedulednotifications/\(cancelled)?\(NH.api)",
                    auth: Token.full()
                ).status == 200)
            clock.advance(61)
            #expect(await emulator.sendDueNotifications() == 1)
            try await emulator.saveState()
        }
        try await withEmulator(statePath: path, clock: clock) { client, emulator async throws in
            clock.advance(3600)
            #expect(await emulator.sendDueNotifications() == 0)
            #expect(try await client.deliveries().isEmpty)
        }
    }

    @Test("after a restart: an issued but unused registration id still upserts; a deleted one is still 410")
    func registrationIdsAcrossRestart() async throws {
        let path = Self.temporaryPath()
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ids = LockedBox<[String]>([])
        try await withEmulator(statePath: path) { client, emulator async throws in
            let unused = try await RegistrationTests.newRegistrationId(client)
            let deleted = try await RegistrationTests.newRegistrationId(client)
            #expect(
                try await RegistrationTests.put(client, deleted, appleRegistrationEntry(token: apnsToken(1), tags: "t"))
                    .status == 200)
            #expect(
                try await client.request(
                    .delete, "/myhub/registrations/\(deleted)?\(NH.api)", auth: Token.listen(),
                    headers: [("If-Match", "*")]
                ).status == 200)
            ids.set([unused, deleted])
            try await emulator.saveState()
        }
        try await withEmulator(statePath: path) { client, _ async throws in
            let unusedId = ids.get()[0]
            let deletedId = ids.get()[1]
            let upsert = try await RegistrationTests.put(
                client, unusedId, appleRegistrationEntry(token: apnsToken(2), tags: "t"))
            RegistrationTests.expectEntry(upsert, id: unusedId, etag: 1)
            let gone = try await RegistrationTests.put(
                client, deletedId, appleRegistrationEntry(token: apnsToken(1), tags: "t"))
            #expect(gone.status == 410, "\(gone)")
        }
    }

    @Test("a missing state file starts empty; a corrupt one is refused")
    func missingAndCorrupt() async throws {
        let path = Self.temporaryPath()
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await withEmulator(statePath: path) { client, _ async throws in
            #expect(try await client.getInstallation("anything").status == 404)
        }
        try Data("{ this is not state".utf8).write(to: URL(fileURLWithPath: path))
        await #expect(throws: (any Error).self) {
            _ = try await Emulator(configuration: NH.configuration(), statePath: path)
        }
    }
}

/// A tiny lock box for passing values out of the `withEmulator` closure.
final class LockedBox<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    func get() -> Value { value.withLock { $0 } }
}
