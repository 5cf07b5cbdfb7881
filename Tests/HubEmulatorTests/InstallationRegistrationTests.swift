import Foundation
import HTTPTypes
import HubEmulator
import Synchronization
import Testing

/// An installation's registrations, as NH lists them: written from the .NET SDK's recordings
/// (`CreateOrUpdateRegistrationAsync_UpsertAppleNativeRegistrationWithCustomId_GetUpsertedRegistrationBack`,
/// `PatchInstallationAsync_CreateInstallationWithUserIdAndUpdateUserIdThroughPatch_GetInstallationWithUpdatedUserIdBack`).
@Suite("Installations' registrations (§3, §4)")
struct InstallationRegistrationTests {
    static let token = "62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA"
    static let installationId = "95e4cf2e-685f-4141-98e2-4c5f71d1a696"

    /// The recorded installation: tag `tag1`, push variable `var1`, one APNs template named `Template Name`.
    static let recordedInstallation = """
        {"installationId":"\(installationId)","platform":"apns","pushChannel":"\(token)","tags":["tag1"],\
        "pushVariables":{"var1":"value1"},"templates":{"Template Name":{"body":"{\\"aps\\":{\\"alert\\":\\"alert!\\"}}",\
        "expiry":"2018-11-07T16:18:32.6641371-08:00"}}}
        """

    /// The feed's entries, each as its text.
    static func entries(_ feed: String) -> [String] {
        feed.components(separatedBy: "<entry").dropFirst().map { "<entry" + $0 }
    }

    static func list(_ client: RawClient, _ path: String = "registrations", query: String = "$top=100") async throws
        -> RawResponse
    {
        let response = try await client.request(.get, "/myhub/\(path)?\(NH.api)&\(query)", auth: Token.full())
        #expect(response.status == 200, "\(response)")
        #expect(normalizedContentType(response.header("Content-Type")) == "application/xml")
        return response
    }

    static func delete(_ client: RawClient, _ id: String, ifMatch: String = "\"*\"") async throws -> RawResponse {
        try await client.request(
            .delete, "/myhub/registrations/\(id)?\(NH.api)", auth: Token.full(), headers: [("If-Match", ifMatch)])
    }

    static func element(_ name: String, _ xml: String) -> String? { RegistrationTests.element(name, in: xml) }

    @Test("GET registrations lists one registration per installation and per template, as recorded")
    func listedAsRecorded() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation(Self.installationId, Self.recordedInstallation).status == 200)
            let feed = try await Self.list(client)
            let entries = Self.entries(feed.body)
            #expect(entries.count == 2, "\(feed.body)")
            let native = try #require(entries.first { $0.contains("<AppleRegistrationDescription") }, "\(feed.body)")
            let template = try #require(
                entries.first { $0.contains("<AppleTemplateRegistrationDescription") }, "\(feed.body)")

            #expect(native.contains(#"p2:etag="W/&quot;1&quot;""#), "\(native)")
            #expect(Self.element("ETag", native) == "1")
            #expect(Self.element("ExpirationTime", native) == "9999-12-31T23:59:59.9999999Z")
            #expect(Self.element("Tags", native) == "$InstallationId:{\(Self.installationId)},tag1")
            #expect(Self.element("PushVariables", native) == #"{"var1":"value1"}"#)
            #expect(Self.element("DeviceToken", native) == Self.token)
            let nativeId = try #require(Self.element("RegistrationId", native))
            #expect(nativeId.matches(#"^[0-9]+-[0-9]+-[0-9]+$"#), "\(nativeId)")
            #expect(native.contains(#"<title type="text">\#(nativeId)</title>"#))

            #expect(Self.element("Tags", template) == "$InstallationId:{\(Self.installationId)},tag1,Template Name")
            #expect(Self.element("PushVariables", template) == #"{"var1":"value1"}"#)
            #expect(
                template.contains(#"<BodyTemplate><![CDATA[{"aps":{"alert":"alert!"}}]]></BodyTemplate>"#),
                "\(template)")
            #expect(
                template.contains(
                    "<Expiry>2018-11-07T16:18:32.6641371-08:00</Expiry><TemplateName>Template Name</TemplateName><ApnsHeaders/>"
                ),
                "\(template)")
            let templateId = try #require(Self.element("RegistrationId", template))
            #expect(templateId != nativeId)

            // Each reads back on its own, as a registration does.
            let get = try await client.request(.get, "/myhub/registrations/\(templateId)?\(NH.api)", auth: Token.full())
            #expect(get.status == 200, "\(get)")
            #expect(get.header("ETag") == nil && Self.element("ETag", get.body) == "1", "\(get)")
            #expect(Self.element("TemplateName", get.body) == "Template Name")

            // The .NET SDK's clean-up: every listed registration deleted with If-Match "*", each 200 with an empty body.
            for id in [nativeId, templateId] {
                let deleted = try await Self.delete(client, id)
                #expect(deleted.status == 200, "\(deleted)")
                #expect(deleted.body.isEmpty)
            }
            #expect(Self.entries(try await Self.list(client).body).isEmpty)
            // With none of its registrations left, the installation is gone too, and its ids with it.
            #expect(try await client.getInstallation(Self.installationId).status == 404)
            #expect(try await Self.delete(client, nativeId).status == 404)
            let reused = try await RegistrationTests.put(
                client, nativeId, appleRegistrationEntry(token: Self.token, tags: nil))
            #expect(reused.status == 410, "\(reused)")
        }
    }

    @Test("each write moves the ETag on; $UserId:{…} is tagged; listings by tag and by channel include them")
    func userIdAndPatch() async throws {
        try await withEmulator { client, _ async throws in
            let id = "716f40c0-f43f-49e5-ac73-d0fe162d1417"
            let body =
                #"{"installationId":"\#(id)","platform":"apns","pushChannel":"\#(Self.token)","userId":"038fde2f"}"#
            #expect(try await client.putInstallation(id, body).status == 200)
            let patch = try await client.patchInstallation(
                id, #"[{"op":"replace","path":"/userId","value":"5812c2fb"}]"#)
            #expect(patch.status == 200, "\(patch)")

            let entries = Self.entries(try await Self.list(client).body)
            #expect(entries.count == 1)
            let entry = try #require(entries.first)
            #expect(Self.element("ETag", entry) == "2")
            #expect(entry.contains(#"p2:etag="W/&quot;2&quot;""#))
            #expect(Self.element("Tags", entry) == "$InstallationId:{\(id)},$UserId:{5812c2fb}")
            #expect(Self.element("PushVariables", entry) == nil)

            let byUser = try await Self.list(client, "tags/%24UserId%3A%7B5812c2fb%7D/registrations", query: "")
            #expect(Self.entries(byUser.body).count == 1, "\(byUser.body)")
            let byOldUser = try await Self.list(client, "tags/%24UserId%3A%7B038fde2f%7D/registrations", query: "")
            #expect(Self.entries(byOldUser.body).isEmpty)
            let byChannel = try await Self.list(client, query: "$filter=ChannelUri+eq+%27\(Self.token)%27")
            #expect(Self.entries(byChannel.body).count == 1)
            #expect(Self.element("RegistrationId", byChannel.body) == Self.element("RegistrationId", entry))

            // A stale ETag is refused like any registration's.
            let registrationId = try #require(Self.element("RegistrationId", entry))
            let stale = try await Self.delete(client, registrationId, ifMatch: "W/\"1\"")
            #expect(stale.status == 412, "\(stale)")
            #expect(try await Self.delete(client, registrationId, ifMatch: "\"2\"").status == 200)
        }
    }

    @Test(
        "deleting a template's registration stops that template's sends only; the next write brings it back under a new id"
    )
    func deleteOnePart() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation("inst-1", seedInstallation(id: "inst-1")).status == 200)
            let before = Self.entries(try await Self.list(client).body)
            let template = try #require(before.first { $0.contains("TemplateRegistrationDescription") })
            let templateId = try #require(Self.element("RegistrationId", template))
            let native = try #require(before.first { !$0.contains("TemplateRegistrationDescription") })
            let nativeId = try #require(Self.element("RegistrationId", native))

            // An installation's registration is changed through the installation.
            let put = try await RegistrationTests.put(
                client, templateId, appleRegistrationEntry(token: apnsToken(9), tags: nil))
            #expect(put.status == 400, "\(put)")
            #expect(put.body.contains("installations/inst-1"), "\(put.body)")

            #expect(try await Self.delete(client, templateId).status == 200)
            #expect(try await client.sendTemplate(#"{"message":"hi"}"#, tags: "12345").status == 201)
            #expect(try await client.sendNative("apple", #"{"aps":{"alert":"native"}}"#, tags: "12345").status == 201)
            let deliveries = try await client.deliveries()
            #expect(deliveries.count == 1, "\(deliveries)")
            #expect(deliveries.first?["payload"] as? String == #"{"aps":{"alert":"native"}}"#)
            #expect(try await client.getInstallation("inst-1").status == 200)
            #expect(Self.entries(try await Self.list(client).body).count == 1)

            // A PUT of the installation sets it whole again: the native registration keeps its id, the template gets a
            // new one, and both carry the new ETag.
            #expect(try await client.putInstallation("inst-1", seedInstallation(id: "inst-1")).status == 200)
            let after = Self.entries(try await Self.list(client).body)
            #expect(after.count == 2)
            let ids = Set(after.compactMap { Self.element("RegistrationId", $0) })
            #expect(ids.contains(nativeId))
            #expect(!ids.contains(templateId))
            #expect(after.allSatisfy { Self.element("ETag", $0) == "2" })
            _ = try await client.request(.delete, "/_emulator/deliveries")
            #expect(try await client.sendTemplate(#"{"message":"back"}"#, tags: "12345").status == 201)
            #expect(try await client.deliveries().count == 1)

            // Deleting the installation retires every id it had.
            #expect(
                try await client.request(.delete, "/myhub/installations/inst-1?\(NH.api)", auth: Token.full()).status
                    == 204)
            #expect(Self.entries(try await Self.list(client).body).isEmpty)
            for id in ids {
                #expect(
                    try await client.request(.get, "/myhub/registrations/\(id)?\(NH.api)", auth: Token.full()).status
                        == 404)
            }
        }
    }

    @Test("PUT registrations/{id} with an id the client chose creates it (200, W/\"1\"); a deleted id stays gone (410)")
    func clientChosenId() async throws {
        try await withEmulator { client, _ async throws in
            let entry = appleRegistrationEntry(token: Self.token, tags: nil)
            let created = try await RegistrationTests.put(client, "123-234-1", entry)
            RegistrationTests.expectEntry(created, id: "123-234-1", etag: 1)
            #expect(Self.element("ExpirationTime", created.body) == "9999-12-31T23:59:59.9999999")
            #expect(Self.element("DeviceToken", created.body) == Self.token)
            RegistrationTests.expectEntry(
                try await RegistrationTests.put(client, "123-234-1", entry), id: "123-234-1", etag: 2)

            #expect(try await Self.delete(client, "123-234-1").status == 200)
            let gone = try await RegistrationTests.put(client, "123-234-1", entry)
            #expect(gone.status == 410, "\(gone)")

            // An id no client could have been given is refused as such, not stored.
            let odd = try await RegistrationTests.put(client, "a%20b%3Cc", entry)
            #expect(odd.status == 400, "\(odd)")
            #expect(Self.entries(try await Self.list(client).body).isEmpty)
        }
    }

    @Test("an installation's registration ids survive a restart with --state")
    func survivesRestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-state-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ids = Mutex<[String]>([])
        try await withEmulator(statePath: path) { client, emulator async throws in
            #expect(try await client.putInstallation("inst-1", seedInstallation(id: "inst-1")).status == 200)
            let listed = Self.entries(try await Self.list(client).body).compactMap {
                Self.element("RegistrationId", $0)
            }.sorted()
            ids.withLock { $0 = listed }
            try await emulator.saveState()
        }
        try await withEmulator(statePath: path) { client, _ async throws in
            let listed = Self.entries(try await Self.list(client).body).compactMap {
                Self.element("RegistrationId", $0)
            }.sorted()
            #expect(listed.count == 2)
            #expect(listed == ids.withLock { $0 })
        }
    }

    @Test("a state file saved before installations' registrations were kept loads, and they get ids")
    func olderStateFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-state-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let installation = #"{"installationId":"old-1","platform":"apns","pushChannel":"\#(Self.token)","tags":["t"]}"#
        let state =
            #"{"format":1,"sequence":3,"hubs":{"myhub":{"installations":{"old-1":\#(installation)},"registrations":{},"#
            + #""issuedRegistrationIDs":[],"retiredRegistrationIDs":[],"scheduled":{}}}}"#
        try state.write(toFile: path, atomically: true, encoding: .utf8)
        try await withEmulator(statePath: path) { client, _ async throws in
            let entries = Self.entries(try await Self.list(client).body)
            #expect(entries.count == 1)
            #expect(entries.first.flatMap { Self.element("Tags", $0) } == "$InstallationId:{old-1},t")
            #expect(try await client.sendNative("apple", #"{"aps":{"alert":"x"}}"#, tags: "t").status == 201)
            #expect(try await client.deliveries().count == 1)
        }
    }
}
