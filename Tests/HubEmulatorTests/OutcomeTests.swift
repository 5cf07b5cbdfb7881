import Foundation
import HTTPTypes
import HubEmulator
import HubWire
import Testing

/// §5.6 per-message telemetry that tells the truth: states over time, counts from what was delivered, dead channels,
/// retired legacy FCM, tiers. Raw HTTP, written from the REST reference ("Get notification message telemetry").
@Suite("Delivery outcomes (§5.6)")
struct OutcomeTests {
    static func details(_ client: RawClient, _ id: String) async throws -> RawResponse {
        try await client.request(.get, "/myhub/messages/\(id)?\(NH.api)", auth: Token.full())
    }

    static func installation(_ id: String, platform: String = "apns", channel: String, tag: String = "t") -> String {
        #"{"installationId":"\#(id)","platform":"\#(platform)","pushChannel":"\#(channel)","tags":["\#(tag)"]}"#
    }

    /// `<Outcome><Name>…</Name><Count>…</Count></Outcome>` pairs of one `…OutcomeCounts` element.
    static func counts(_ prefix: String, in xml: String) -> [String: Int] {
        guard let inner = RegistrationTests.element("\(prefix)OutcomeCounts", in: xml) else { return [:] }
        var result: [String: Int] = [:]
        for outcome in inner.components(separatedBy: "<Outcome>").dropFirst() {
            if let name = RegistrationTests.element("Name", in: outcome),
                let count = RegistrationTests.element("Count", in: outcome).flatMap(Int.init)
            {
                result[name] = count
            }
        }
        return result
    }

    @Test(
        "the state moves from Enqueued to Processing to Completed; counts, end time and error link come with Completed")
    func statesOverTime() async throws {
        let clock = TestClock(frozen: true)
        try await withEmulator(NH.configuration(telemetryDelay: 4), clock: clock) { client, _ async throws in
            #expect(try await client.putInstallation("a", Self.installation("a", channel: apnsToken(1))).status == 200)
            let id = try #require(
                try await client.sendNative("apple", #"{"aps":{"alert":"hi"}}"#, tags: "t").locationLastSegment)
            let enqueued = try await Self.details(client, id)
            #expect(enqueued.status == 200, "\(enqueued)")
            #expect(normalizedContentType(enqueued.header("Content-Type")) == "application/xml;charset=utf-8")
            #expect(RegistrationTests.element("State", in: enqueued.body) == "Enqueued")
            #expect(RegistrationTests.element("EnqueueTime", in: enqueued.body) != nil)
            #expect(RegistrationTests.element("StartTime", in: enqueued.body) == nil)
            #expect(!enqueued.body.contains("OutcomeCounts"))

            clock.advance(2.5)
            let processing = try await Self.details(client, id)
            #expect(RegistrationTests.element("State", in: processing.body) == "Processing")
            #expect(RegistrationTests.element("StartTime", in: processing.body) != nil)
            #expect(RegistrationTests.element("EndTime", in: processing.body) == nil)

            clock.advance(2)
            let completed = try await Self.details(client, id)
            #expect(RegistrationTests.element("State", in: completed.body) == "Completed")
            #expect(RegistrationTests.element("EndTime", in: completed.body) != nil)
            #expect(Self.counts("Apns", in: completed.body) == ["Success": 1])
            #expect(RegistrationTests.element("TargetPlatforms", in: completed.body) == "apple")
            #expect(RegistrationTests.element("PnsErrorDetailsUri", in: completed.body) == nil)
        }
    }

    @Test(
        "channels the config marks dead are counted as NH counts them, get nothing, and their installations read pushChannelExpired"
    )
    func deadChannelsByHandle() async throws {
        let rules = [
            DeadChannelRule(reason: .expired, selection: .handles([apnsToken(0xE)])),
            DeadChannelRule(reason: .invalid, selection: .handles([apnsToken(0xB), "fcm-bad"])),
        ]
        let clock = TestClock()
        try await withEmulator(NH.configuration(deadChannels: rules), clock: clock) { client, _ async throws in
            for (id, channel) in [("expired", apnsToken(0xE)), ("invalid", apnsToken(0xB)), ("fine", apnsToken(0xF))] {
                #expect(try await client.putInstallation(id, Self.installation(id, channel: channel)).status == 200)
            }
            #expect(
                try await client.putInstallation(
                    "android", Self.installation("android", platform: "fcmv1", channel: "fcm-bad")
                ).status == 200)
            let apple = try #require(
                try await client.sendNative("apple", #"{"aps":{"alert":"hi"}}"#, tags: "t").locationLastSegment)
            let android = try #require(
                try await client.sendNative("fcmv1", #"{"message":{"data":{"a":"b"}}}"#, tags: "t").locationLastSegment)
            let deliveries = try await client.deliveries()
            #expect(deliveries.compactMap { $0["installationId"] as? String } == ["fine"])

            clock.advance(2)
            let details = try await Self.details(client, apple)
            #expect(Self.counts("Apns", in: details.body) == ["Success": 1, "ExpiredChannel": 1, "BadChannel": 1])
            let link = try #require(RegistrationTests.element("PnsErrorDetailsUri", in: details.body))
            #expect(link.hasSuffix("/_emulator/pns-errors/\(apple)"), "\(link)")
            let errors = try await client.request(.get, "/_emulator/pns-errors/\(apple)")
            #expect(errors.status == 200, "\(errors)")
            let listed = (errors.json as? [[String: Any]] ?? []).map {
                "\($0["installationId"] as? String ?? "-"):\($0["outcome"] as? String ?? "-")"
            }
            #expect(Set(listed) == ["expired:ExpiredChannel", "invalid:BadChannel"])
            // FCM v1 folds an invalid (and an expired) token into BadChannel.
            #expect(Self.counts("FcmV1", in: try await Self.details(client, android).body) == ["BadChannel": 1])

            for (id, expired) in [("expired", true), ("invalid", true), ("fine", false), ("android", true)] {
                let body = InstallationTests.object(try await client.getInstallation(id))
                #expect(body["pushChannelExpired"] as? Bool == expired, "\(id)")
            }
            // The app's next write (a new token, or the same one again) clears the mark until the PNS refuses it again.
            #expect(
                try await client.putInstallation("expired", Self.installation("expired", channel: apnsToken(0xE)))
                    .status == 200)
            #expect(
                InstallationTests.object(try await client.getInstallation("expired"))["pushChannelExpired"] as? Bool
                    == false)
        }
    }

    @Test("a share of a platform's devices is refused, the same devices on every send, other platforms untouched")
    func deadChannelsByShare() async throws {
        let rules = [DeadChannelRule(reason: .expired, selection: .share(.apns, 0.25))]
        let clock = TestClock()
        try await withEmulator(NH.configuration(deadChannels: rules, telemetryDelay: 0), clock: clock) {
            client, _ async throws in
            for n in 1...80 {
                #expect(
                    try await client.putInstallation("d\(n)", Self.installation("d\(n)", channel: apnsToken(n))).status
                        == 200)
            }
            #expect(
                try await client.putInstallation(
                    "w", Self.installation("w", platform: "wns", channel: "https://db5.notify.windows.com/?token=w")
                ).status == 200)
            var refused: [Set<String>] = []
            for _ in 1...2 {
                let native = try #require(
                    try await client.sendNative("apple", #"{"aps":{"alert":"x"}}"#, tags: "t").locationLastSegment)
                let counts = Self.counts("Apns", in: try await Self.details(client, native).body)
                #expect((counts["Success"] ?? 0) + (counts["ExpiredChannel"] ?? 0) == 80, "\(counts)")
                #expect((8...32).contains(counts["ExpiredChannel"] ?? 0), "\(counts)")
                let errors = try await client.request(.get, "/_emulator/pns-errors/\(native)")
                refused.append(
                    Set((errors.json as? [[String: Any]] ?? []).compactMap { $0["installationId"] as? String }))
            }
            #expect(refused[0] == refused[1])
            #expect(refused[0].count > 0)
            let windows = try #require(
                try await client.sendNative(
                    "windows", "<toast/>", tags: "t", contentType: "application/xml",
                    extraHeaders: [("X-WNS-Type", "wns/toast")]
                ).locationLastSegment)
            #expect(Self.counts("Wns", in: try await Self.details(client, windows).body) == ["Success": 1])
        }
    }

    @Test("legacy FCM (gcm) devices reach nobody: the API was retired, and the counts say so")
    func legacyFCM() async throws {
        try await withEmulator(NH.configuration(telemetryDelay: 0)) { client, _ async throws in
            #expect(
                try await client.putInstallation(
                    "old", Self.installation("old", platform: "gcm", channel: "legacy-token")
                ).status == 200)
            #expect(
                try await client.putInstallation(
                    "new", Self.installation("new", platform: "fcmv1", channel: "v1-token")
                ).status == 200)
            let legacy = try #require(
                try await client.sendNative("gcm", #"{"data":{"a":"b"}}"#, tags: "t").locationLastSegment)
            let details = try await Self.details(client, legacy)
            #expect(RegistrationTests.element("State", in: details.body) == "Completed")
            #expect(Self.counts("Gcm", in: details.body) == ["PnsUnavailable": 1])
            #expect(try await client.deliveries().isEmpty)
            // A test send says why, device by device.
            let test = try await client.sendNative("gcm", #"{"data":{"a":"b"}}"#, tags: "t", query: "&test")
            #expect(test.body.contains("legacy FCM was retired"), "\(test.body)")
            #expect(RegistrationTests.element("Success", in: test.body) == "0")
            #expect(RegistrationTests.element("Failure", in: test.body) == "1")
            #expect(
                InstallationTests.object(try await client.getInstallation("old"))["pushChannelExpired"] as? Bool
                    == false)
        }
    }

    @Test("a direct send to a dead handle is counted, not delivered")
    func directToDeadHandle() async throws {
        let rules = [DeadChannelRule(reason: .invalid, selection: .handles([apnsToken(0xD)]))]
        try await withEmulator(NH.configuration(deadChannels: rules, telemetryDelay: 0)) { client, _ async throws in
            let sent = try await client.sendNative(
                "apple", #"{"aps":{"alert":"x"}}"#, tags: nil, query: "&direct",
                extraHeaders: [("ServiceBusNotification-DeviceHandle", apnsToken(0xD))])
            let id = try #require(sent.locationLastSegment)
            #expect(Self.counts("Apns", in: try await Self.details(client, id).body) == ["BadChannel": 1])
            #expect(try await client.deliveries().isEmpty)
        }
    }

    @Test("below Standard telemetry is the REST reference's 403; an unknown id is 404")
    func tiersAndUnknown() async throws {
        for tier in [EmulatorConfiguration.Tier.free, .basic] {
            try await withEmulator(NH.configuration(tier: tier)) { client, _ async throws in
                let refused = try await Self.details(client, "any")
                AuthTests.expectError(
                    refused, 403,
                    detailPrefix:
                        "Request rejected because this feature is not enabled for your SKU. Upgrade to Standard.")
            }
        }
        try await withEmulator { client, _ async throws in
            AuthTests.expectError(try await Self.details(client, "nope"), 404, detailPrefix: "Telemetry does not exist")
        }
    }
}
