import Foundation
import HTTPTypes
import HubEmulator
import Testing

/// Answers checked against the recordings' headers and bodies, beyond installations.
@Suite("Recorded answer shapes (§3, §4)")
struct RecordedShapeTests {
    @Test(
        "written registrations answer ExpirationTime …9999999, reads …9999999Z; published and updated alike, in whole seconds"
    )
    func expirationAndDates() async throws {
        try await withEmulator { client, _ async throws in
            let put = try await RegistrationTests.put(
                client, "123-234-1", appleRegistrationEntry(token: apnsToken(1), tags: nil))
            #expect(RegistrationTests.element("ExpirationTime", in: put.body) == "9999-12-31T23:59:59.9999999")
            let published = try #require(RegistrationTests.element("published", in: put.body))
            #expect(published.matches(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#), "\(published)")
            #expect(RegistrationTests.element("updated", in: put.body) == published)
            let get = try await client.request(.get, "/myhub/registrations/123-234-1?\(NH.api)", auth: Token.full())
            #expect(RegistrationTests.element("ExpirationTime", in: get.body) == "9999-12-31T23:59:59.9999999Z")
            let list = try await client.request(.get, "/myhub/registrations?\(NH.api)", auth: Token.full())
            #expect(RegistrationTests.element("ExpirationTime", in: list.body) == "9999-12-31T23:59:59.9999999Z")
        }
    }

    @Test(
        "listing ids and self links name resources with the request's query; the next link re-encodes the path called")
    func listingLinks() async throws {
        try await withEmulator { client, _ async throws in
            for (seed, id) in [(1, "1-1-1"), (2, "2-2-2"), (3, "3-3-3")] {
                #expect(
                    try await RegistrationTests.put(
                        client, id, appleRegistrationEntry(token: apnsToken(seed), tags: "tag1")
                    ).status == 200)
            }
            let query = "api-version=2017-04&$top=2"
            let page = try await client.request(.get, "/myhub/registrations?\(query)", auth: Token.full())
            #expect(page.status == 200, "\(page)")
            let token = try #require(page.header("x-ms-continuationtoken"))
            #expect(page.body.contains("<id>http://"), "\(page.body)")
            #expect(page.body.contains("/myhub/resources?api-version=2017-04&amp;$top=2</id>"), "\(page.body)")
            #expect(page.body.contains("/myhub/resources/1-1-1?api-version=2017-04&amp;$top=2</id>"), "\(page.body)")
            #expect(page.body.contains(#"<link rel="self" href="http://"#))
            let encodedToken = token.replacingOccurrences(of: "%", with: "%25")
            #expect(
                page.body.contains(
                    "/myhub/registrations?api-version=2017-04&amp;%24top=2&amp;continuationtoken=\(encodedToken)\"/>"),
                "\(page.body)")
            // Entries inside a feed leave the Atom namespace to the feed, as the service's do.
            #expect(
                InstallationRegistrationTests.entries(page.body).allSatisfy {
                    !$0.contains(#"xmlns="http://www.w3.org/2005/Atom""#)
                })
            // The next page, asked with the header's token as the SDKs do, carries that query too.
            let second = try await client.request(
                .get, "/myhub/registrations?\(query)&continuationtoken=\(token)", auth: Token.full())
            #expect(
                second.body.contains(
                    "/myhub/resources/3-3-3?api-version=2017-04&amp;$top=2&amp;continuationtoken=\(token)</id>"),
                "\(second.body)")
            #expect(second.header("x-ms-continuationtoken") == nil)

            let byTag = try await client.request(
                .get, "/myhub/tags/tag1/registrations?api-version=2017-04", auth: Token.full())
            // A tag listing names its entries as resources too (recorded 2024; the old front end put them under the tag).
            #expect(byTag.body.contains("/myhub/resources/2-2-2?api-version=2017-04</id>"), "\(byTag.body)")
        }
    }

    @Test("a WNS installation's channel is kept as NH keeps it: https://some.url reads back as https://some.url/")
    func channelURI() async throws {
        try await withEmulator { client, _ async throws in
            let body = #"{"installationId":"w1","platform":"wns","pushChannel":"https://Some.URL","tags":["t"]}"#
            #expect(try await client.putInstallation("w1", body).status == 200)
            let object = InstallationTests.object(try await client.getInstallation("w1"))
            #expect(object["pushChannel"] as? String == "https://some.url/")
            let list = try await client.request(.get, "/myhub/registrations?\(NH.api)", auth: Token.full())
            #expect(RegistrationTests.element("ChannelUri", in: list.body) == "https://some.url/", "\(list.body)")
            #expect(
                try await client.sendNative(
                    "windows", "<toast/>", tags: "t", contentType: "application/xml",
                    extraHeaders: [("X-WNS-Type", "wns/toast")]
                ).status == 201)
            #expect(try await client.deliveries().first?["pushChannel"] as? String == "https://some.url/")
            // A channel filter written as the app wrote the channel finds it too.
            let filtered = try await client.request(
                .get, "/myhub/registrations?\(NH.api)&$filter=ChannelUri+eq+%27https%3A%2F%2Fsome.url%27",
                auth: Token.full())
            #expect(InstallationRegistrationTests.entries(filtered.body).count == 1, "\(filtered.body)")
        }
        // A dead-channels rule written as the app wrote the channel matches the channel as kept.
        let rules = [DeadChannelRule(reason: .expired, selection: .handles(["https://Some.URL"]))]
        try await withEmulator(NH.configuration(deadChannels: rules)) { client, _ async throws in
            let body = #"{"installationId":"w1","platform":"wns","pushChannel":"https://some.url","tags":["t"]}"#
            #expect(try await client.putInstallation("w1", body).status == 200)
            #expect(
                try await client.sendNative(
                    "windows", "<toast/>", tags: "t", contentType: "application/xml",
                    extraHeaders: [("X-WNS-Type", "wns/toast")]
                ).status == 201)
            #expect(try await client.deliveries().isEmpty)
        }
    }

    @Test("a test send names an installation's device by the installation's own registration id")
    func testSendRegistrationIds() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation("i1", seedInstallation(id: "i1")).status == 200)
            let listed = try await client.request(.get, "/myhub/registrations?\(NH.api)", auth: Token.full())
            let templateEntry = try #require(
                InstallationRegistrationTests.entries(listed.body).first {
                    $0.contains("TemplateRegistrationDescription")
                })
            let templateId = try #require(RegistrationTests.element("RegistrationId", in: templateEntry))
            let test = try await client.sendTemplate(#"{"message":"x"}"#, tags: "12345", query: "&test")
            #expect(RegistrationTests.element("RegistrationId", in: test.body) == templateId, "\(test.body)")
        }
    }

    @Test("notification and scheduled notification ids take the recorded shapes, and a scheduled one cancels by its id")
    func idShapes() async throws {
        let clock = TestClock()
        try await withEmulator(clock: clock) { client, _ async throws in
            #expect(try await client.putInstallation("s-1", seedInstallation(id: "s-1")).status == 200)
            let before = ScheduleTests.format(clock.now).filter(\.isNumber)
            let sent = try await client.sendTemplate(#"{"message":"now"}"#, tags: "12345")
            let after = ScheduleTests.format(clock.now).filter(\.isNumber)
            let id = try #require(sent.locationLastSegment)
            #expect(id.matches(#"^[0-9a-f]{32}-\d{14}-\d{8}-\d+$"#), "\(id)")
            // The stamp is the send's time in UTC: between the clock before and after it.
            let stamp = id.split(separator: "-")[1]
            #expect(before <= stamp && stamp <= after, "\(id) between \(before) and \(after)")

            let scheduled = try await ScheduleTests.schedule(
                client, at: ScheduleTests.format(clock.now.addingTimeInterval(600)))
            let scheduledId = try #require(ScheduleTests.scheduledId(scheduled))
            #expect(
                scheduledId.matches(#"^[0-9a-f]{32}_\d{14}_\d{8}_\d+_QNHQueue[0-9a-f]{32}-S\d{17}$"#), "\(scheduledId)")
            let cancel = try await client.request(
                .delete, "/myhub/schedulednotifications/\(scheduledId)?\(NH.api)", auth: Token.full())
            #expect(cancel.status == 200, "\(cancel)")
        }
    }

    @Test("channel URIs: scheme and host lower-cased, an empty path made /, everything else as written")
    func channelNormalisation() {
        #expect(ChannelURI.normalized("https://some.url") == "https://some.url/")
        #expect(
            ChannelURI.normalized("HTTPS://DB5.Notify.Windows.com/?token=AwYAAAB%2b")
                == "https://db5.notify.windows.com/?token=AwYAAAB%2b")
        #expect(ChannelURI.normalized("https://Host:8443?Q=A") == "https://host:8443/?Q=A")
        #expect(ChannelURI.normalized("https://[::1]") == "https://[::1]/")
        #expect(ChannelURI.normalized("not a uri") == "not a uri")
    }
}
