import Foundation
import HTTPTypes
import HubEmulator
import PushService
import Testing

@Suite("The official sample backend's routes: installations and requests")
struct SampleBackendRouteTests {
    static func installation(
        _ id: String, platform: String = "apns", channel: String = apnsToken(60), tags: [String] = []
    ) -> String {
        let list = tags.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"installationId":"\#(id)","platform":"\#(platform)","pushChannel":"\#(channel)","tags":[\#(list)]}"#
    }

    @Test func aDeviceKeyRegistersItsUsersInstallationAndASenderKeyNotifiesIt() async throws {
        try await ServiceHarness.with { harness in
            let put = await harness.call(
                .put, "/api/notifications/installations", apiKey: ServiceHarness.aliceDeviceKey,
                body: Self.installation("alice-phone-1", tags: ["topic_news"]))
            #expect(put.status == 200, "\(put)")
            #expect(put.text.isEmpty)
            // The sample's request shape, as its backend's docs test it.
            let sent = await harness.call(
                .post, "/api/notifications/requests", apiKey: ServiceHarness.apiKey,
                body: #"{"text":"Message from \"Postman\"!","action":"action_a","tags":["topic_news"]}"#)
            #expect(sent.status == 200, "\(sent)")
            let delivery = try #require(await harness.deliveries().first)
            #expect(delivery.installationId == "alice-phone-1")
            #expect(jsonEqual(delivery.payload, #"{"aps":{"alert":"Message from \"Postman\"!"},"action":"action_a"}"#))
            let silent = await harness.call(
                .post, "/api/notifications/requests", apiKey: ServiceHarness.apiKey,
                body: #"{"action":"action_b","silent":true,"tags":["username:alice"]}"#)
            #expect(silent.status == 200, "\(silent)")
            let second = try #require(await harness.deliveries().last)
            #expect(second.payload.contains(#""content-available":1"#))
            #expect(second.headers["apns-push-type"] == "background")
        }
    }

    @Test func anEmptyTagListIsRefusedNeverABroadcast() async throws {
        try await ServiceHarness.with { harness in
            _ = await harness.call(
                .put, "/api/notifications/installations", as: "bob",
                body: Self.installation("bob-1", channel: apnsToken(61)))
            for body in [#"{"text":"hi","action":"a","tags":[]}"#, #"{"text":"hi","action":"a"}"#] {
                let sent = await harness.call(
                    .post, "/api/notifications/requests", apiKey: ServiceHarness.apiKey, body: body)
                #expect(sent.status == 422)
                #expect(sent.detail.contains("broadcast"))
            }
            #expect(await harness.deliveries().isEmpty)
        }
    }

    @Test func anotherUsersInstallationCannotBeTakenOrDeleted() async throws {
        try await ServiceHarness.with { harness in
            #expect(
                await harness.call(
                    .put, "/api/notifications/installations", as: "bob",
                    body: Self.installation("shared-id", channel: apnsToken(62))
                ).status == 200)
            let take = await harness.call(
                .put, "/api/notifications/installations", apiKey: ServiceHarness.aliceDeviceKey,
                body: Self.installation("shared-id", channel: apnsToken(63)))
            #expect(take.status == 404)
            let delete = await harness.call(
                .delete, "/api/notifications/installations/shared-id", apiKey: ServiceHarness.aliceDeviceKey)
            #expect(delete.status == 404)
            // The sender key names no user: it cannot own devices.
            let sender = await harness.call(
                .put, "/api/notifications/installations", apiKey: ServiceHarness.apiKey,
                body: Self.installation("x-1"))
            #expect(sender.status == 403)
            _ = await harness.call(
                .post, "/api/notifications?pns=apns&to_tag=bob", as: "carol", body: #""still bob's""#)
            #expect(await harness.deliveries().map(\.pushChannel) == [apnsToken(62)])
            #expect(await harness.call(.delete, "/api/notifications/installations/shared-id", as: "bob").status == 200)
        }
    }

    @Test func usersMayAddressOnlyUsersAndTagsAreChecked() async throws {
        try await ServiceHarness.with { harness in
            let topic = await harness.call(
                .post, "/api/notifications/requests", as: "alice",
                body: #"{"text":"hi","action":"a","tags":["topic_news"]}"#)
            #expect(topic.status == 403)
            let expression = await harness.call(
                .post, "/api/notifications/requests", apiKey: ServiceHarness.apiKey,
                body: #"{"text":"hi","action":"a","tags":["a || b"]}"#)
            #expect(expression.status == 422)
            let noText = await harness.call(
                .post, "/api/notifications/requests", apiKey: ServiceHarness.apiKey,
                body: #"{"action":"a","tags":["x"]}"#)
            #expect(noText.status == 400)
            let platform = await harness.call(
                .put, "/api/notifications/installations", as: "alice",
                body: Self.installation("a-1", platform: "pager"))
            #expect(platform.status == 400)
            let missing = await harness.call(
                .put, "/api/notifications/installations", as: "alice", body: #"{"platform":"apns"}"#)
            #expect(missing.status == 400)
            #expect(missing.detail.contains("installationId"))
            let slash = await harness.call(
                .put, "/api/notifications/installations", as: "alice",
                body: Self.installation("../registrations"))
            #expect(slash.status == 400)
        }
    }

    @Test func moreThanTwentyTagsAreSentInGroupsOfTwenty() async throws {
        try await ServiceHarness.with { harness in
            try await harness.register("bob", handle: apnsToken(64), tags: ["topic_t24"])
            let tags = (0..<25).map { "\"topic_t\($0)\"" }.joined(separator: ",")
            let sent = await harness.call(
                .post, "/api/notifications/requests", apiKey: ServiceHarness.apiKey,
                body: #"{"text":"hi","action":"a","tags":[\#(tags)]}"#)
            #expect(sent.status == 200, "\(sent)")
            // topic_t24 is in the second group only: one delivery, not two and not none.
            #expect(await harness.deliveries().count == 1)
        }
    }

    @Test func theVersionedInstallationRoutesKeepEachUserToTheirOwn() async throws {
        try await ServiceHarness.with { harness in
            let put = await harness.call(
                .put, "/v1/installations/alice-tablet", as: "alice",
                body:
                    #"{"platform":"fcmv1","pushChannel":"\#(String(repeating: "f", count: 40)):APA91b\#(String(repeating: "x", count: 60))","tags":["topic_news"]}"#
            )
            #expect(put.status == 200, "\(put)")
            let read = await harness.call(.get, "/v1/installations/alice-tablet", as: "alice")
            #expect(read.status == 200, "\(read)")
            #expect(read.json?["userId"] as? String == "alice")
            #expect((read.json?["tags"] as? [String])?.contains("username:alice") == true)
            #expect(await harness.call(.get, "/v1/installations/alice-tablet", as: "bob").status == 404)
            #expect(await harness.call(.delete, "/v1/installations/alice-tablet", as: "bob").status == 404)
            let mismatch = await harness.call(
                .put, "/v1/installations/alice-tablet", as: "alice",
                body: #"{"installationId":"other","platform":"apns","pushChannel":"\#(apnsToken(65))"}"#)
            #expect(mismatch.status == 422)
            #expect(mismatch.json?["field"] as? String == "installationId")
            #expect(await harness.call(.delete, "/v1/installations/alice-tablet", as: "alice").status == 200)
            #expect(await harness.call(.get, "/v1/installations/alice-tablet", as: "alice").status == 404)
        }
    }
}
