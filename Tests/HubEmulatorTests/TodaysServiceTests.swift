import Foundation
import HTTPTypes
import HubEmulator
import Testing

/// The calls of the official JS SDK's recordings of the live service (April 2024, `azsdk-js-notificationhubs/1.2.1`),
/// made again in raw HTTP as that SDK makes them, and answered as the service answered them: statuses, the headers a
/// client reads (Content-Type, Content-Length, Location; no ETag, no Content-Location), the ids and the entries.
///
/// The .NET SDK's recordings (2018–2022) came from NH's old front end and differ; where they do, these win.
@Suite("Today's service, as the JS SDK recorded it (2024)")
struct TodaysServiceTests {
    static let api = "api-version=2020-06"
    /// The token the recordings register, as the SDK sent it (lower-case); the service keeps and answers it upper-cased.
    static let token = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0"
    static let guid = #"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"#

    /// What the SDK adds to every request.
    static func headers(_ extra: [(String, String)] = []) -> [(String, String)] {
        [
            ("x-ms-version", "2020-06"),
            ("User-Agent", "azsdk-js-notificationhubs/1.2.1 core-rest-pipeline/1.16.0 Node/19.7.0"),
        ] + extra
    }

    /// The registration body the SDK writes (`createRegistration`, `createOrUpdateRegistration`).
    static let entry =
        #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><entry xmlns="http://www.w3.org/2005/Atom">"#
        + #"<updated>2024-04-16T22:06:17.923Z</updated><content type="application/xml"><AppleRegistrationDescription "#
        + #"xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect" "#
        + #"xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><Tags>likes_football,likes_hockey</Tags>"#
        + "<DeviceToken>\(token)</DeviceToken></AppleRegistrationDescription></content></entry>"

    /// Every answer: a TrackingId and a correlation id of its own, both lower-case GUIDs.
    static func expectIds(_ response: RawResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        let tracking = response.header("TrackingId") ?? ""
        let correlation = response.header("x-ms-correlation-request-id") ?? ""
        #expect(tracking.matches(guid) && correlation.matches(guid), "\(response)", sourceLocation: sourceLocation)
        #expect(tracking != correlation, "\(response)", sourceLocation: sourceLocation)
    }

    /// An empty answer with no Content-Type (installation writes, registration deletes, sends).
    static func expectEmpty(_ response: RawResponse, _ status: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, "\(response)", sourceLocation: sourceLocation)
        #expect(response.body.isEmpty, "\(response)", sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == nil, "\(response)", sourceLocation: sourceLocation)
        expectIds(response, sourceLocation: sourceLocation)
    }

    /// A registration entry as the recordings show it: a write's is an Atom entry named `registrations/{id}` with
    /// `ExpirationTime` `…9999999`; a read's is `application/xml`, named `resources/{id}`, with `…9999999Z`.
    static func expectEntry(_ response: RawResponse, read: Bool, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> String
    {
        #expect(response.status == 200, "\(response)", sourceLocation: sourceLocation)
        #expect(
            response.header("Content-Type")
                == (read ? "application/xml" : "application/atom+xml; type=entry; charset=utf-8"),
            "\(response)", sourceLocation: sourceLocation)
        #expect(
            response.header("ETag") == nil && response.header("Content-Location") == nil, "\(response)",
            sourceLocation: sourceLocation)
        expectIds(response, sourceLocation: sourceLocation)
        let body = response.body
        let id = try #require(RegistrationTests.element("RegistrationId", in: body), sourceLocation: sourceLocation)
        #expect(
            body.hasPrefix(
                #"<entry p1:etag="W/&quot;1&quot;" xmlns:p1="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" xmlns="http://www.w3.org/2005/Atom"><id>"#
            ),
            "\(body)", sourceLocation: sourceLocation)
        let name = read ? "resources" : "registrations"
        #expect(
            RegistrationTests.element("id", in: body)?.matches(
                #"^http://[^/]+/myhub/\#(name)/\#(id)\?api-version=2020-06$"#) == true,
            "\(body)", sourceLocation: sourceLocation)
        #expect(body.contains(#"<title type="text">\#(id)</title>"#), sourceLocation: sourceLocation)
        #expect(
            body.contains(#"<link rel="self" href="\#(RegistrationTests.element("id", in: body) ?? "")" />"#),
            "\(body)",
            sourceLocation: sourceLocation)
        let description =
            "<ETag>1</ETag><ExpirationTime>9999-12-31T23:59:59.9999999\(read ? "Z" : "")</ExpirationTime>"
            + "<RegistrationId>\(id)</RegistrationId><Tags>likes_football,likes_hockey</Tags>"
            + "<DeviceToken>\(token.uppercased())</DeviceToken></AppleRegistrationDescription></content></entry>"
        #expect(body.hasSuffix(description), "\(body)", sourceLocation: sourceLocation)
        return id
    }

    static func createRegistration(_ client: RawClient) async throws -> String {
        let created = try await client.request(
            .post, "/myhub/registrations?\(api)", auth: Token.js(),
            headers: headers([
                ("Content-Type", "application/atom+xml;type=entry;charset=utf-8")
            ]), body: entry)
        return try expectEntry(created, read: false)
    }

    static func delete(_ client: RawClient, _ id: String) async throws {
        let deleted = try await client.request(
            .delete, "/myhub/registrations/\(id)?\(api)", auth: Token.js(),
            headers: headers([
                ("Content-Type", "application/atom+xml;type=entry;charset=utf-8"), ("If-Match", "*"),
            ]))
        expectEmpty(deleted, 200)
        #expect(deleted.header("Content-Length") == "0")
    }

    /// A feed as `listRegistrations` and `listRegistrationsByTag` received it.
    static func expectFeed(_ response: RawResponse, ids: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 200, "\(response)", sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == "application/xml", "\(response)", sourceLocation: sourceLocation)
        expectIds(response, sourceLocation: sourceLocation)
        let body = response.body
        #expect(
            body.matches(
                #"^<feed xmlns="http://www.w3.org/2005/Atom"><title type="text">Registrations</title><id>http://[^/]+/myhub/resources\?api-version=2020-06</id><updated>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ</updated><link rel="self" href="http://[^/]+/myhub/resources\?api-version=2020-06" /><entry p2:etag="#
            ),
            "\(body)", sourceLocation: sourceLocation)
        let entries = InstallationRegistrationTests.entries(body)
        #expect(
            entries.compactMap { RegistrationTests.element("RegistrationId", in: $0) } == ids.sorted(),
            sourceLocation: sourceLocation)
        for entry in entries {
            let id = RegistrationTests.element("RegistrationId", in: entry) ?? ""
            #expect(
                entry.hasPrefix(
                    #"<entry p2:etag="W/&quot;1&quot;" xmlns:p2="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><id>"#
                ),
                "\(entry)", sourceLocation: sourceLocation)
            #expect(
                RegistrationTests.element("id", in: entry)?.matches(
                    #"^http://[^/]+/myhub/resources/\#(id)\?api-version=2020-06$"#) == true,
                "\(entry)", sourceLocation: sourceLocation)
            #expect(
                RegistrationTests.element("ExpirationTime", in: entry) == "9999-12-31T23:59:59.9999999Z",
                sourceLocation: sourceLocation)
            #expect(
                RegistrationTests.element("DeviceToken", in: entry) == token.uppercased(),
                sourceLocation: sourceLocation)
        }
    }

    @Test("createOrUpdateInstallation: PUT 200 and DELETE 204, both empty with no Content-Type")
    func installation() async throws {
        try await withEmulator { client, _ async throws in
            let id = "0e7c5973-714c-4ba9-a233-7c4497d5f43b"
            let body =
                #"{"installationId":"\#(id)","pushChannel":"\#(Self.token)","tags":["likes_hockey","likes_football"],"platform":"apns"}"#
            let put = try await client.request(
                .put, "/myhub/installations/\(id)?\(Self.api)", auth: Token.js(),
                headers: Self.headers([("Content-Type", "application/json")]), body: body)
            Self.expectEmpty(put, 200)
            #expect(put.header("Content-Length") == "0")
            let deleted = try await client.request(
                .delete, "/myhub/installations/\(id)?\(Self.api)", auth: Token.js(), headers: Self.headers())
            Self.expectEmpty(deleted, 204)
        }
    }

    @Test("createRegistrationId, createOrUpdateRegistration, getRegistration, deleteRegistration")
    func registrationById() async throws {
        try await withEmulator { client, _ async throws in
            let issued = try await client.request(
                .post, "/myhub/registrationIDs?\(Self.api)", auth: Token.js(),
                headers: Self.headers([
                    ("Content-Type", "application/xml;type=entry;charset=utf-8"), ("Content-Length", "0"),
                ]))
            #expect(issued.status == 201 && issued.body.isEmpty, "\(issued)")
            #expect(issued.header("Content-Type") == "application/atom+xml; type=entry; charset=utf-8", "\(issued)")
            #expect(issued.header("Content-Length") == "0", "\(issued)")
            Self.expectIds(issued)
            let location = try #require(issued.header("Location"))
            #expect(location.matches(#"^http://[^/]+/myhub/registrationids/\d+-\d+-\d+$"#), "\(location)")
            let id = String(try #require(location.split(separator: "/").last))

            let put = try await client.request(
                .put, "/myhub/registrations/\(id)?\(Self.api)", auth: Token.js(),
                headers: Self.headers([
                    ("Content-Type", "application/atom+xml;type=entry;charset=utf-8")
                ]), body: Self.entry)
            #expect(try Self.expectEntry(put, read: false) == id)
            let get = try await client.request(
                .get, "/myhub/registrations/\(id)?\(Self.api)", auth: Token.js(),
                headers: Self.headers([
                    ("Content-Type", "application/xml;type=entry;charset=utf-8")
                ]))
            #expect(try Self.expectEntry(get, read: true) == id)
            try await Self.delete(client, id)
            #expect(
                try await client.request(.get, "/myhub/registrations/\(id)?\(Self.api)", auth: Token.js()).status == 404
            )
        }
    }

    @Test(
        "createRegistration then listRegistrations and listRegistrationsByTag: feeds of application/xml naming resources"
    )
    func listings() async throws {
        try await withEmulator { client, _ async throws in
            var ids: [String] = []
            for _ in 0..<3 { ids.append(try await Self.createRegistration(client)) }
            let all = try await client.request(
                .get, "/myhub/registrations?\(Self.api)", auth: Token.js(), headers: Self.headers())
            Self.expectFeed(all, ids: ids)
            let byTag = try await client.request(
                .get, "/myhub/tags/likes_football/registrations?\(Self.api)", auth: Token.js(),
                headers: Self.headers())
            Self.expectFeed(byTag, ids: ids)
            // A device token is matched whatever its case: the app's own, as it registered it, finds its registrations.
            let filter = "$filter=DeviceToken%20eq%20'\(Self.token)'"
            let byToken = try await client.request(
                .get, "/myhub/registrations?\(Self.api)&\(filter)", auth: Token.js(), headers: Self.headers())
            #expect(InstallationRegistrationTests.entries(byToken.body).count == 3, "\(byToken.body)")
            for id in ids { try await Self.delete(client, id) }
        }
    }

    @Test("sendNotification, broadcast, direct and by tag expression, on a hub below Standard: 201, empty, no Location")
    func sends() async throws {
        try await withEmulator(NH.configuration(tier: .basic)) { client, _ async throws in
            _ = try await Self.createRegistration(client)
            let alert = #"{"aps":{"alert":"Hello"}}"#
            let sends: [(query: String, extra: [(String, String)])] = [
                ("", []),
                ("&direct=true", [("ServiceBusNotification-DeviceHandle", Self.token)]),
                ("", [("ServiceBusNotification-Tags", "likes_hockey && likes_football")]),
            ]
            for send in sends {
                let response = try await client.request(
                    .post, "/myhub/messages/?\(Self.api)\(send.query)", auth: Token.js(),
                    headers: Self.headers(
                        [
                            ("apns-priority", "10"), ("apns-push-type", "alert"),
                            ("Content-Type", "application/json;charset=utf-8"),
                            ("ServiceBusNotification-Format", "apple"),
                        ] + send.extra), body: alert)
                Self.expectEmpty(response, 201)
                #expect(response.header("Content-Length") == "0" && response.header("Location") == nil, "\(response)")
                #expect(response.header("X-Powered-By") == "Azure Notification Hubs", "\(response)")
            }
            // Each reached the one device: the broadcast and the tag expression its registration, the direct send its token.
            let deliveries = try await client.deliveries()
            #expect(deliveries.count == 3, "\(deliveries)")
            #expect(
                deliveries.allSatisfy {
                    ($0["pushChannel"] as? String)?.lowercased() == Self.token && $0["payload"] as? String == alert
                })
        }
    }
}
