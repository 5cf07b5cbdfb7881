import Foundation
import HTTPTypes
import HubEmulator
import HubWire
import PushService
import Testing

@Suite("Device routes: the seed app's register flow, with ownership and tag rules")
struct DeviceRouteTests {
    @Test func registersADeviceWithTheCallersIdentityTagAndReusesItsIdForTheSameHandle() async throws {
        try await ServiceHarness.with { harness in
            let handle = apnsToken(1)
            let id = try await harness.register("alice", handle: handle, tags: ["topic_news"])
            // The seed app asks again on every start: the caller's own registration for the handle is reused.
            let again = await harness.call(.post, "/api/register?handle=\(handle)", as: "alice")
            #expect(again.status == 200)
            #expect(again.text == "\"\(id)\"")
            #expect(again.headers[.contentType]?.hasPrefix("application/json") == true)
            // bob notifies alice by name: her device receives it, rendered by the template.
            let sent = await harness.call(
                .post, "/api/notifications?pns=apns&to_tag=alice", as: "bob", body: #""Lunch?""#)
            #expect(sent.status == 200, "\(sent)")
            let deliveries = await harness.deliveries()
            #expect(deliveries.count == 1)
            #expect(deliveries.first?.pushChannel == handle)
            #expect(deliveries.first?.registrationId == id)
            #expect(
                deliveries.first.map {
                    jsonEqual($0.payload, #"{"aps":{"alert":"From bob: Lunch?","sound":"default"}}"#)
                } == true)
        }
    }

    @Test func aSecondRegistrationOfTheCallersForTheSameHandleIsDeletedOnReuse() async throws {
        try await ServiceHarness.with { harness in
            let handle = apnsToken(2)
            let first = try await harness.register("alice", handle: handle)
            // A second id for the same handle, registered directly (as a crashed app might leave it).
            let second = await harness.call(.post, "/api/register", as: "alice")
            let secondID = try #require(try JSONDecoder().decode(String?.self, from: Data(second.text.utf8)))
            #expect(secondID != first)
            let put = await harness.call(
                .put, "/api/register/\(secondID)", as: "alice",
                body: #"{"Platform":"apns","Handle":"\#(handle)","Tags":[]}"#)
            #expect(put.status == 200)
            let reused = await harness.call(.post, "/api/register?handle=\(handle)", as: "alice")
            #expect(reused.status == 200)
            _ = await harness.call(.post, "/api/notifications?pns=apns&to_tag=alice", as: "bob", body: #""once""#)
            // One registration left for the handle, so one delivery, not two.
            #expect(await harness.deliveries().count == 1)
        }
    }

    @Test func theRegistrationsNHListsForAnInstallationAreNeitherReusedNorTidiedAway() async throws {
        try await ServiceHarness.with { harness in
            let handle = apnsToken(7)
            // alice's phone has an installation (the sample backend's route) for the handle: NH lists its registration
            // among the handle's registrations, tagged $InstallationId:{…} and username:alice.
            let installation = SampleBackendRouteTests.installation("alice-phone-7", channel: handle)
            #expect(
                await harness.call(.put, "/api/notifications/installations", as: "alice", body: installation).status
                    == 200)
            // The seed flow for the same handle gets an id of its own and registers under it.
            let id = try await harness.register("alice", handle: handle)
            let again = await harness.call(.post, "/api/register?handle=\(handle)", as: "alice")
            #expect(again.text == "\"\(id)\"")
            // Both reach the phone: the installation was not tidied away as a duplicate registration.
            _ = await harness.call(.post, "/api/notifications?pns=apns&to_tag=alice", as: "bob", body: #""both""#)
            let deliveries = await harness.deliveries()
            #expect(Set(deliveries.compactMap(\.installationId)) == ["alice-phone-7"])
            #expect(Set(deliveries.compactMap(\.registrationId)) == [id])
        }
    }

    @Test func anotherUsersRegistrationCannotBeTakenOrDeleted() async throws {
        try await ServiceHarness.with { harness in
            let alicesID = try await harness.register("alice", handle: apnsToken(3))
            let take = await harness.call(
                .put, "/api/register/\(alicesID)", as: "bob",
                body: #"{"Platform":"apns","Handle":"\#(apnsToken(4))","Tags":[]}"#)
            #expect(take.status == 404)
            let delete = await harness.call(.delete, "/api/register/\(alicesID)", as: "bob")
            #expect(delete.status == 404)
            // An id issued to alice and not yet used is not bob's either.
            let issued = await harness.call(.post, "/api/register", as: "alice")
            let issuedID = try #require(try JSONDecoder().decode(String?.self, from: Data(issued.text.utf8)))
            let snatch = await harness.call(
                .put, "/api/register/\(issuedID)", as: "bob",
                body: #"{"Platform":"apns","Handle":"\#(apnsToken(5))","Tags":[]}"#)
            #expect(snatch.status == 410)
            // Alice's device still gets her notifications, and only hers.
            _ = await harness.call(
                .post, "/api/notifications?pns=apns&to_tag=alice", as: "carol", body: #""still yours""#)
            let deliveries = await harness.deliveries()
            #expect(deliveries.map(\.pushChannel) == [apnsToken(3)])
            // Her own delete works.
            #expect(await harness.call(.delete, "/api/register/\(alicesID)", as: "alice").status == 200)
            #expect(await harness.call(.delete, "/api/register/\(alicesID)", as: "alice").status == 404)
        }
    }

    @Test(arguments: [
        ("username:bob", 403, "names another user"),
        ("$UserId:bob", 422, "special tag"),
        ("topic_a && topic_b", 422, "tag expression"),
        ("vip", 422, "not one this service allows"),
        ("topic_ünï", 422, "not"),
    ])
    func clientTagsAreRefusedWithAReason(_ tag: String, _ status: Int, _ reason: String) async throws {
        try await ServiceHarness.with { harness in
            let created = await harness.call(.post, "/api/register", as: "alice")
            let id = try #require(try JSONDecoder().decode(String?.self, from: Data(created.text.utf8)))
            let escaped = tag.replacingOccurrences(of: "\"", with: "\\\"")
            let put = await harness.call(
                .put, "/api/register/\(id)", as: "alice",
                body: #"{"Platform":"apns","Handle":"\#(apnsToken(6))","Tags":["\#(escaped)"]}"#)
            #expect(put.status == status, "\(put)")
            #expect(put.detail.contains(reason), "\(put.detail)")
            #expect(put.headers[.contentType] == "application/problem+json")
            #expect(await harness.deliveries().isEmpty)
        }
    }

    @Test func theCallersOwnIdentityTagIsAcceptedAndTooManyTagsAreRefused() async throws {
        try await ServiceHarness.with { harness in
            try await harness.register("alice", handle: apnsToken(7), tags: ["username:alice", "topic_a"])
            let created = await harness.call(.post, "/api/register", as: "alice")
            let id = try #require(try JSONDecoder().decode(String?.self, from: Data(created.text.utf8)))
            let tags = (1...5).map { "\"topic_\($0)\"" }.joined(separator: ",")
            let put = await harness.call(
                .put, "/api/register/\(id)", as: "alice",
                body: #"{"Platform":"apns","Handle":"\#(apnsToken(8))","Tags":[\#(tags)]}"#)
            #expect(put.status == 422)
            #expect(put.detail.contains("at most 5 tags"))
        }
    }

    @Test func unknownPlatformsAndMalformedHandlesAreBadRequests() async throws {
        try await ServiceHarness.with { harness in
            let created = await harness.call(.post, "/api/register", as: "alice")
            let id = try #require(try JSONDecoder().decode(String?.self, from: Data(created.text.utf8)))
            let platform = await harness.call(
                .put, "/api/register/\(id)", as: "alice", body: #"{"Platform":"pager","Handle":"x","Tags":[]}"#)
            #expect(platform.status == 400)
            #expect(platform.detail.contains("unknown Platform 'pager'"))
            let handle = await harness.call(
                .put, "/api/register/\(id)", as: "alice", body: #"{"Platform":"apns","Handle":"not-hex","Tags":[]}"#)
            #expect(handle.status == 400)
            let shape = await harness.call(.put, "/api/register/\(id)", as: "alice", body: #"{"platform":1}"#)
            #expect(shape.status == 400)
        }
    }

    @Test func aGoneRegistrationIsAnswered410SoTheAppAsksForANewId() async throws {
        try await ServiceHarness.with { harness in
            let created = await harness.call(.post, "/api/register", as: "alice")
            let id = try #require(try JSONDecoder().decode(String?.self, from: Data(created.text.utf8)))
            // Before alice's app uses the id, the hub retires it: a registration under it is made and deleted straight
            // at the hub (an operator's clean-up). NH answers a later PUT of a deleted id with 410 Gone.
            let endpoint = HubEndpoint(hubBaseURL: "http://127.0.0.1:\(harness.served.port)/myhub/", hub: "myhub")
            let description = RegistrationDescription(kind: .apple, isTemplate: false, handle: apnsToken(8))
            #expect(await harness.hubStatus(HubRequests.upsertRegistration(description, id: id, at: endpoint)) == 200)
            #expect(await harness.hubStatus(HubRequests.deleteRegistration(id: id, at: endpoint)) == 200)
            let put = await harness.call(
                .put, "/api/register/\(id)", as: "alice",
                body: #"{"Platform":"apns","Handle":"\#(apnsToken(9))","Tags":[]}"#)
            #expect(put.status == 410, "\(put)")
            #expect(put.detail.contains("POST /api/register"))
        }
    }
}

/// Structural JSON equality.
func jsonEqual(_ lhs: String, _ rhs: String) -> Bool {
    func canonical(_ text: String) -> Data? {
        guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
            return nil
        }
        return try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }
    guard let a = canonical(lhs), let b = canonical(rhs) else { return false }
    return a == b
}
