import Foundation
import HubWire
import PipelineCore
import TestSupport
import Testing

@testable import RegisterStep

private func devices(_ count: Int) -> ConfigNode {
    list(
        (1...count).map { n in
            mapping([
                ("installationId", scalar("d\(n)")), ("platform", scalar("gcm")), ("pushChannel", scalar("token-\(n)")),
            ])
        })
}

@Suite struct RunBehaviourTests {
    @Test(arguments: [1, 4])
    func concurrencyNeverExceedsTheLimit(_ limit: Int) async throws {
        let step = try built([
            ("hub", scalar("tutorial")), ("installations", devices(24)), ("concurrency", scalar("\(limit)")),
        ])
        let transport = ScriptedTransport(delay: .milliseconds(5))
        let result = try await step.run(in: context(transport))
        #expect(transport.requests.count == 24)
        #expect(transport.maxInFlight <= limit)
        if limit > 1 { #expect(transport.maxInFlight > 1, "devices should run concurrently") }
        #expect(result.data.outcomes.count == 24)
    }

    @Test func registrationsCountEachRequestAgainstTheLimit() async throws {
        let items = (1...12).map { n in mapping([("platform", scalar("fcmv1")), ("handle", scalar("token-\(n)"))]) }
        let step = try built([
            ("hub", scalar("tutorial")), ("registrations", list(items)), ("concurrency", scalar("3")),
        ])
        let transport = ScriptedTransport(delay: .milliseconds(5))
        let result = try await step.run(in: context(transport))
        #expect(transport.requests.count == 24)
        #expect(transport.maxInFlight <= 3)
        #expect(Set(result.data.outcomes.values) == ["created"])
    }

    @Test func dryRunShowsTheFirstThreeRequestsRedacted() async throws {
        let step = try built([("hub", scalar("tutorial")), ("installations", devices(5))])
        let transport = DryRunTransport()
        let result = try await step.run(in: context(transport, dryRun: true))
        let authorization =
            "Authorization: SharedAccessSignature sr=https%3a%2f%2fcontoso-nh.servicebus.windows.net%2fmyhub&sig=<redacted>&se=1700000000&skn=DefaultFullSharedAccessSignature"
        #expect(
            result.lines == (1...3).flatMap { n in
                [
                    "PUT \(base)installations/d\(n)?api-version=2020-06", authorization,
                    "Content-Type: application/json", "",
                    #"{"installationId":"d\#(n)","platform":"gcm","pushChannel":"token-\#(n)"}"#,
                ]
            } + ["… 2 more requests (--dry-run --trace prints every one)"])
        #expect(transport.requests.count == 5)
        // A dry run sends nothing: its devices are planned, and the summary says what would be done.
        #expect(
            result.summary == "would register 5 installations on hub 'tutorial' (5 planned, 0 failed); nothing sent")
        #expect(result.items == ItemCounts(planned: 5))
        let everything = ([result.summary] + result.lines).joined(separator: "\n") + "\(result.data)"
        #expect(!everything.contains(connection.key))
        #expect(!everything.contains("nDOo5CZj0P"))
    }

    @Test func dryRunOfRegistrationsUsesTheRecordersLocation() async throws {
        let step = try built([
            ("hub", scalar("tutorial")),
            (
                "registrations",
                list([
                    mapping([("platform", scalar("gcm")), ("handle", scalar(fcmToken))])
                ])
            ),
        ])
        let result = try await step.run(in: context(DryRunTransport(), dryRun: true))
        #expect(
            result.lines.filter { $0.hasPrefix("POST ") || $0.hasPrefix("PUT ") } == [
                "POST \(base)registrationIDs?api-version=2020-06",
                "PUT \(base)registrations/dry-run-1?api-version=2020-06",
            ])
        #expect(result.lines.filter { $0.hasPrefix("Authorization:") }.allSatisfy { $0.contains("sig=<redacted>&") })
    }

    @Test func aRefusedKeyStopsNewDevicesAndSaysWhy() async throws {
        let step = try built([("hub", scalar("tutorial")), ("installations", devices(6)), ("concurrency", scalar("1"))])
        let refused = HubResponse(
            status: 401,
            body: Array(
                "<Error><Code>401</Code><Detail>InvalidSignature: The token has an invalid signature..TrackingId:x,TimeStamp:y</Detail></Error>"
                    .utf8))
        let transport = ScriptedTransport { _, _ in .success(refused) }
        let failure = try await failure(of: step, in: context(transport))
        #expect(transport.requests.count == 1)
        #expect(
            failure.message
                == "stopped after 1 installation on hub 'tutorial' (0 ok, 1 failed): hub 'tutorial': the token's signature is invalid: the key does not match the hub's policy"
        )
        #expect(failure.hint?.contains("Access Policies") == true)
        #expect(
            failure.lines == [
                "d1: PUT installation 'd1': the token's signature is invalid: the key does not match the hub's policy"
            ])
    }

    @Test func anUnreachableHubStopsToo() async throws {
        let step = try built([("hub", scalar("tutorial")), ("installations", devices(3)), ("concurrency", scalar("1"))])
        let transport = ScriptedTransport { _, _ in
            .failure(TransportError(kind: .unreachable, message: "connection refused", attempts: 4, trackingId: "t"))
        }
        let failure = try await failure(of: step, in: context(transport))
        #expect(transport.requests.count == 1)
        #expect(
            failure.message
                == "stopped after 1 installation on hub 'tutorial' (0 ok, 1 failed): hub 'tutorial': connection refused"
        )
        #expect(failure.lines == ["d1: PUT installation 'd1': connection refused"])
    }

    /// A request that cannot be written (a header with a line break) is its device's own failure: the other devices
    /// are still registered, where an unreachable hub stops them all.
    @Test func anUnsendableRequestFailsItsDeviceAndTheOthersGoOn() async throws {
        let step = try built([("hub", scalar("tutorial")), ("installations", devices(3)), ("concurrency", scalar("1"))])
        let transport = ScriptedTransport { request, _ in
            guard request.url.contains("installations/d2") else { return nil }
            return .failure(
                TransportError(
                    kind: .unsendable, message: "the value of header x holds a line break", attempts: 0,
                    trackingId: "t"))
        }
        let failure = try await failure(of: step, in: context(transport))
        #expect(transport.requests.count == 3, "the devices after it are still registered")
        #expect(!failure.message.contains("stopped"), "\(failure.message)")
        #expect(failure.lines.contains { $0.contains("d2") && $0.contains("line break") }, "\(failure.lines)")
    }
}
