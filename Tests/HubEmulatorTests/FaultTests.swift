import Foundation
import HTTPTypes
import HubEmulator
import Testing

/// §8 / §11.5: injected throttling and dropped connections.
@Suite("Injected faults (§8, §11)")
struct FaultTests {
    @Test("latency: matching requests wait the delay before they are answered; the side channel does not")
    func latency() async throws {
        var configuration = NH.configuration()
        configuration.latency = LatencyRule(delay: .milliseconds(300), operations: [.send])
        try await withEmulator(configuration) { client, _ async throws in
            #expect(try await client.putInstallation("l-1", seedInstallation(id: "l-1")).status == 200)
            let clock = ContinuousClock()
            let start = clock.now
            let send = try await client.sendTemplate(#"{"message":"x"}"#, tags: "12345")
            #expect(send.status == 201, "\(send)")
            #expect(clock.now - start >= .milliseconds(300))
            #expect(try await client.request(.get, "/_emulator/health").status == 200)
        }
    }

    @Test("429 + Retry-After on sends only; nothing delivered")
    func throttleSends() async throws {
        let rule = FaultRule(effect: .status(429, retryAfter: 1), rate: 1, operations: [.send])
        try await withEmulator(NH.configuration(faults: [rule])) { client, _ async throws in
            #expect(try await client.putInstallation("f-1", seedInstallation(id: "f-1")).status == 200)
            #expect(try await client.getInstallation("f-1").status == 200)
            let send = try await client.sendTemplate(#"{"message":"x"}"#, tags: "12345")
            #expect(send.status == 429, "\(send)")
            #expect(send.header("Retry-After") == "1", "\(send)")
            let direct = try await client.sendNative(
                "apple", #"{"aps":{}}"#, tags: nil, query: "&direct",
                extraHeaders: [("ServiceBusNotification-DeviceHandle", apnsToken(1))])
            #expect(direct.status == 429)
            let batch = try await BatchTests.batch(
                client, contentType: "multipart/mixed; boundary=b",
                body: BatchTests.multipart(boundary: "b", devices: [apnsToken(1)]))
            #expect(batch.status == 429, "\(batch)")
            let schedule = try await ScheduleTests.schedule(
                client, at: ScheduleTests.format(Date().addingTimeInterval(600)))
            #expect(schedule.status == 429, "\(schedule)")
            #expect(try await client.deliveries().isEmpty)
            let health = try await client.request(.get, "/_emulator/health")
            #expect(health.status == 200, "the side channel is never faulted")
        }
    }

    @Test("403 + Retry-After (quota) on installations only")
    func quotaOnInstallations() async throws {
        let rule = FaultRule(effect: .status(403, retryAfter: 5), rate: 1, operations: [.installation])
        try await withEmulator(NH.configuration(faults: [rule])) { client, _ async throws in
            let put = try await client.putInstallation("f-1", seedInstallation(id: "f-1"))
            #expect(put.status == 403, "\(put)")
            #expect(put.header("Retry-After") == "5")
            let ids = try await client.request(.post, "/myhub/registrationids?\(NH.api)", auth: Token.full(), body: "")
            #expect(ids.status == 201, "\(ids)")
            #expect(try await client.sendTemplate(#"{"message":"x"}"#, tags: "12345").status == 201)
        }
    }

    @Test("status without Retry-After on registrations")
    func serverBusyOnRegistrations() async throws {
        let rule = FaultRule(effect: .status(503, retryAfter: nil), rate: 1, operations: [.registration])
        try await withEmulator(NH.configuration(faults: [rule])) { client, _ async throws in
            let ids = try await client.request(.post, "/myhub/registrationids?\(NH.api)", auth: Token.full(), body: "")
            #expect(ids.status == 503, "\(ids)")
            #expect(ids.header("Retry-After") == nil)
            let byTag = try await client.request(.get, "/myhub/tags/x/registrations?\(NH.api)", auth: Token.full())
            #expect(byTag.status == 503)
            #expect(try await client.putInstallation("f-1", seedInstallation(id: "f-1")).status == 200)
        }
    }

    @Test("dropped connection: the request gets no response and has no effect")
    func dropConnection() async throws {
        let rule = FaultRule(effect: .dropConnection, rate: 1, operations: [.send])
        try await withEmulator(NH.configuration(faults: [rule])) { client, _ async throws in
            #expect(try await client.putInstallation("f-1", seedInstallation(id: "f-1")).status == 200)
            await #expect(throws: (any Error).self) {
                try await client.sendTemplate(#"{"message":"x"}"#, tags: "12345")
            }
            // The server is still up for other operations.
            #expect(try await client.getInstallation("f-1").status == 200)
            #expect(try await client.deliveries().isEmpty)
        }
    }

    @Test("rate 0 never fires; rate 0.5 fires for some requests only")
    func rates() async throws {
        try await withEmulator(NH.configuration(faults: [FaultRule(effect: .status(429, retryAfter: 1), rate: 0)])) {
            client, _ async throws in
            for _ in 0..<20 {
                #expect(try await client.sendTemplate(#"{"message":"x"}"#, tags: "nobody").status == 201)
            }
        }
        try await withEmulator(NH.configuration(faults: [FaultRule(effect: .status(429, retryAfter: 1), rate: 0.5)])) {
            client, _ async throws in
            var throttled = 0
            for _ in 0..<100 {
                let status = try await client.sendTemplate(#"{"message":"x"}"#, tags: "nobody").status
                #expect(status == 201 || status == 429)
                if status == 429 { throttled += 1 }
            }
            #expect((15...85).contains(throttled), "\(throttled) of 100 throttled at rate 0.5")
        }
    }
}
