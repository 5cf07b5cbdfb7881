import Foundation
import HTTPTypes
import HubEmulator
import Testing

/// §5.4: scheduled sends, due and cancelled, driven by an injected clock (no sleeping).
@Suite("Scheduled sends (§5.4)")
struct ScheduleTests {
    static func format(_ date: Date, iso: Bool = false) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = iso ? "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'" : "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: date)
    }

    static func schedule(
        _ client: RawClient, at time: String, tags: String? = "12345",
        body: String = #"{"message":"Later"}"#, auth: String = Token.full()
    ) async throws -> RawResponse {
        var headers = [
            ("ServiceBusNotification-Format", "template"), ("Content-Type", "application/json;charset=utf-8"),
            ("ServiceBusNotification-ScheduleTime", time),
        ]
        if let tags { headers.append(("ServiceBusNotification-Tags", tags)) }
        return try await client.request(
            .post, "/myhub/schedulednotifications?\(NH.api)", auth: auth, headers: headers, body: body)
    }

    static func scheduledId(_ response: RawResponse, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        #expect(response.status == 201, "\(response)", sourceLocation: sourceLocation)
        let location = response.header("Location") ?? ""
        #expect(
            location.matches(#"^https?://[^/]+/myhub/schedulednotifications/[^/?]+\?api-version=2015-01$"#),
            "Location: \(location)", sourceLocation: sourceLocation)
        return response.locationLastSegment
    }

    @Test("a scheduled send is held until due, then delivered once")
    func due() async throws {
        let clock = TestClock()
        try await withEmulator(clock: clock) { client, emulator async throws in
            #expect(try await client.putInstallation("s-1", seedInstallation(id: "s-1")).status == 200)
            let response = try await Self.schedule(client, at: Self.format(clock.now.addingTimeInterval(3600)))
            _ = try #require(Self.scheduledId(response))
            #expect(response.body.isEmpty)

            #expect(await emulator.sendDueNotifications() == 0)
            #expect(try await client.deliveries().isEmpty)

            clock.advance(1800)
            #expect(await emulator.sendDueNotifications() == 0)
            #expect(try await client.deliveries().isEmpty)

            clock.advance(1801)
            #expect(await emulator.sendDueNotifications() == 1)
            let deliveries = try await client.deliveries()
            #expect(deliveries.count == 1)
            #expect(deliveries.first?["payload"] as? String == #"{"aps":{"alert":"Later"}}"#)
            #expect(deliveries.first?["template"] as? String == "genericTemplate")
            #expect(deliveries.first?["installationId"] as? String == "s-1")

            clock.advance(3600)
            #expect(await emulator.sendDueNotifications() == 0)
            #expect(try await client.deliveries().count == 1)
        }
    }

    @Test("the ISO form with Z and milliseconds is accepted; targeting is evaluated when it fires")
    func isoTime() async throws {
        let clock = TestClock()
        try await withEmulator(clock: clock) { client, emulator async throws in
            let response = try await Self.schedule(
                client, at: Self.format(clock.now.addingTimeInterval(600), iso: true))
            _ = Self.scheduledId(response)
            // The device registers after scheduling but before the time comes.
            #expect(try await client.putInstallation("s-2", seedInstallation(id: "s-2")).status == 200)
            clock.advance(601)
            #expect(await emulator.sendDueNotifications() == 1)
            #expect(try await client.deliveries().count == 1)
        }
    }

    @Test("a cancelled scheduled send never fires (DELETE → 200)")
    func cancelled() async throws {
        let clock = TestClock()
        try await withEmulator(clock: clock) { client, emulator async throws in
            #expect(try await client.putInstallation("s-1", seedInstallation(id: "s-1")).status == 200)
            let keep = try #require(
                Self.scheduledId(
                    try await Self.schedule(
                        client, at: Self.format(clock.now.addingTimeInterval(60)),
                        body: #"{"message":"kept"}"#)))
            let cancel = try #require(
                Self.scheduledId(
                    try await Self.schedule(
                        client, at: Self.format(clock.now.addingTimeInterval(60)),
                        body: #"{"message":"cancelled"}"#)))
            #expect(keep != cancel)
            let delete = try await client.request(
                .delete, "/myhub/schedulednotifications/\(cancel)?\(NH.api)", auth: Token.full())
            #expect(delete.status == 200, "\(delete)")

            clock.advance(120)
            #expect(await emulator.sendDueNotifications() == 1)
            let payloads = try await client.deliveries().compactMap { $0["payload"] as? String }
            #expect(payloads == [#"{"aps":{"alert":"kept"}}"#])

            // Cancelling again, or cancelling an unknown id: 404 (Java also accepts it) or 200.
            let again = try await client.request(
                .delete, "/myhub/schedulednotifications/\(cancel)?\(NH.api)", auth: Token.full())
            #expect(again.status == 404 || again.status == 200, "\(again)")
        }
    }

    @Test("schedule limits: more than 7 days ahead, missing or bad time → 400; exactly 7 days is fine")
    func limits() async throws {
        let clock = TestClock()
        try await withEmulator(clock: clock) { client, _ async throws in
            let tooFar = try await Self.schedule(
                client, at: Self.format(clock.now.addingTimeInterval(7 * 86_400 + 3600)))
            #expect(tooFar.status == 400, "\(tooFar)")
            let sevenDays = try await Self.schedule(
                client, at: Self.format(clock.now.addingTimeInterval(7 * 86_400 - 60)))
            #expect(sevenDays.status == 201, "\(sevenDays)")
            let garbage = try await Self.schedule(client, at: "next tuesday")
            #expect(garbage.status == 400, "\(garbage)")
            let missing = try await client.request(
                .post, "/myhub/schedulednotifications?\(NH.api)", auth: Token.full(),
                headers: [
                    ("ServiceBusNotification-Format", "template"),
                    ("Content-Type", "application/json;charset=utf-8"),
                ],
                body: #"{"message":"x"}"#)
            #expect(missing.status == 400, "\(missing)")
            // The real header is …ScheduleTime, not …ScheduleTimeUtc.
            let wrongName = try await client.request(
                .post, "/myhub/schedulednotifications?\(NH.api)", auth: Token.full(),
                headers: [
                    ("ServiceBusNotification-Format", "template"),
                    ("Content-Type", "application/json;charset=utf-8"),
                    (
                        "ServiceBusNotification-ScheduleTimeUtc",
                        Self.format(clock.now.addingTimeInterval(60))
                    ),
                ],
                body: #"{"message":"x"}"#)
            #expect(wrongName.status == 400, "\(wrongName)")
        }
    }

    @Test("scheduled sends are Standard-only")
    func standardOnly() async throws {
        let clock = TestClock()
        try await withEmulator(NH.configuration(tier: .basic), clock: clock) { client, emulator async throws in
            #expect(try await client.putInstallation("s-1", seedInstallation(id: "s-1")).status == 200)
            let response = try await Self.schedule(client, at: Self.format(clock.now.addingTimeInterval(60)))
            #expect((400..<500).contains(response.status), "\(response)")
            clock.advance(120)
            #expect(await emulator.sendDueNotifications() == 0)
            #expect(try await client.deliveries().isEmpty)
        }
    }
}
