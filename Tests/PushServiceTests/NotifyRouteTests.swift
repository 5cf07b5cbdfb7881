import Foundation
import HTTPTypes
import HubEmulator
import PushService
import Testing

@Suite("User-to-user notifications")
struct NotifyRouteTests {
    @Test func goesOnlyToTheNamedUsersDevicesEscapedByTheTemplate() async throws {
        try await ServiceHarness.with { harness in
            try await harness.register("alice", handle: apnsToken(40))
            try await harness.register("bob", handle: apnsToken(41))
            try await harness.register("carol", handle: apnsToken(42), tags: ["topic_bob"])
            let sent = await harness.call(
                .post, "/api/notifications?pns=apns&to_tag=bob", as: "alice",
                body: #""He said \"hi\" & left""#)
            #expect(sent.status == 200, "\(sent)")
            let deliveries = await harness.deliveries()
            #expect(deliveries.map(\.pushChannel) == [apnsToken(41)])
            let payload = try #require(deliveries.first?.payload)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: [String: String]])
            #expect(object["aps"]?["alert"] == #"From alice: He said "hi" & left"#)
        }
    }

    @Test(arguments: ["bob || alice", "bob&&x", "(bob)", "!bob", "bob alice"])
    func aRecipientThatIsAnExpressionIsRefused(_ recipient: String) async throws {
        try await ServiceHarness.with { harness in
            try await harness.register("alice", handle: apnsToken(43))
            let encoded = recipient.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? recipient
            let sent = await harness.call(
                .post, "/api/notifications?pns=apns&to_tag=\(encoded)", as: "bob", body: #""x""#)
            #expect(sent.status == 422, "\(sent)")
            #expect(await harness.deliveries().isEmpty)
        }
    }

    @Test func badRequestsSayWhatToFix() async throws {
        try await ServiceHarness.with { harness in
            let noPNS = await harness.call(.post, "/api/notifications?to_tag=bob", as: "alice", body: #""x""#)
            #expect(noPNS.status == 400)
            #expect(noPNS.detail.contains("?pns="))
            let unknown = await harness.call(
                .post, "/api/notifications?pns=pager&to_tag=bob", as: "alice", body: #""x""#)
            #expect(unknown.status == 400)
            let noTemplate = await harness.call(
                .post, "/api/notifications?pns=mpns&to_tag=bob", as: "alice", body: #""x""#)
            #expect(noTemplate.status == 400)
            #expect(noTemplate.detail.contains("no notification template for mpns"))
            let notJSON = await harness.call(
                .post, "/api/notifications?pns=apns&to_tag=bob", as: "alice", body: "hello")
            #expect(notJSON.status == 400)
            #expect(notJSON.detail.contains("JSON string"))
            let empty = await harness.call(.post, "/api/notifications?pns=apns&to_tag=bob", as: "alice", body: #""  ""#)
            #expect(empty.status == 400)
            #expect(await harness.deliveries().isEmpty)
        }
    }

    @Test func eachPlatformGetsItsOwnTemplate() async throws {
        try await ServiceHarness.with { harness in
            let fcm = String(repeating: "f", count: 40) + ":APA91b" + String(repeating: "x", count: 60)
            try await harness.register("bob", handle: fcm, platform: "fcmv1")
            let sent = await harness.call(
                .post, "/api/notifications?pns=fcmv1&to_tag=bob", as: "alice", body: #""ping""#)
            #expect(sent.status == 200, "\(sent)")
            let payload = try #require(await harness.deliveries().first?.payload)
            #expect(payload.contains(#""body":"ping""#))
            #expect(payload.contains(#""title":"From alice""#))
        }
    }

    @Test func whoMayNotifyWhomIsTheServiceFilesDecision() async throws {
        try await ServiceHarness.with({ $0.notifyPolicy = .selfOnly }) { harness in
            try await harness.register("bob", handle: apnsToken(44))
            let other = await harness.call(.post, "/api/notifications?pns=apns&to_tag=bob", as: "alice", body: #""x""#)
            #expect(other.status == 403)
            let own = await harness.call(
                .post, "/api/notifications?pns=apns&to_tag=bob", as: "bob", body: #""note to self""#)
            #expect(own.status == 200)
            #expect(await harness.deliveries().count == 1)
        }
    }
}
