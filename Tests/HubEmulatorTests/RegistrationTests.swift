import Foundation
import HTTPTypes
import HubEmulator
import Testing

/// §4: registrations (Atom/XML), ETags, If-Match, 410, listing and paging.
@Suite("Registrations (§4)")
struct RegistrationTests {
    /// `POST registrationIDs` → the id from `Location` (Java's regex `/registrationids/([^?]+)`).
    static func newRegistrationId(
        _ client: RawClient, path: String = "registrationIDs",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let response = try await client.request(.post, "/myhub/\(path)?\(NH.api)", auth: Token.listen(), body: "")
        #expect(response.status == 201, "\(response)", sourceLocation: sourceLocation)
        #expect(response.body.isEmpty, sourceLocation: sourceLocation)
        // Recorded 2024: an empty 201 labelled as an entry, its Location without a query.
        #expect(
            normalizedContentType(response.header("Content-Type")) == atomEntryType, "\(response)",
            sourceLocation: sourceLocation)
        let location = try #require(response.header("Location"), sourceLocation: sourceLocation)
        #expect(
            location.matches(#"^https?://[^/]+/myhub/registrationids/[^?/]+$"#), "\(location)",
            sourceLocation: sourceLocation)
        let match = try #require(
            location.range(of: #"/registrationids/([^?]+)"#, options: .regularExpression),
            sourceLocation: sourceLocation)
        return String(location[match].dropFirst("/registrationids/".count))
    }

    static func put(
        _ client: RawClient, _ id: String, _ entry: String, ifMatch: String? = nil,
        auth: String = Token.listen()
    ) async throws -> RawResponse {
        var headers = [("Content-Type", atomEntryType)]
        if let ifMatch { headers.append(("If-Match", ifMatch)) }
        return try await client.request(
            .put, "/myhub/registrations/\(id)?\(NH.api)", auth: auth, headers: headers, body: entry)
    }

    static func element(_ name: String, in xml: String) -> String? {
        guard let start = xml.range(of: "<\(name)>"),
            let end = xml.range(of: "</\(name)>", range: start.upperBound..<xml.endIndex)
        else { return nil }
        return String(xml[start.upperBound..<end.lowerBound])
    }

    static func entryCount(_ feed: String) -> Int {
        feed.components(separatedBy: "<entry").count - 1
    }

    /// An entry answer as today's service gives it (recorded 2024): a write's labelled an Atom entry and named
    /// `registrations/{id}`, a read's labelled `application/xml` and named `resources/{id}`; neither carries an ETag
    /// or Content-Location header (the ETag is in the entry).
    static func expectEntry(
        _ response: RawResponse, id: String, etag: Int, status: Int = 200, read: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, "\(response)", sourceLocation: sourceLocation)
        #expect(
            normalizedContentType(response.header("Content-Type")) == (read ? "application/xml" : atomEntryType),
            "\(response)",
            sourceLocation: sourceLocation)
        #expect(response.header("ETag") == nil, "\(response)", sourceLocation: sourceLocation)
        #expect(response.header("Content-Location") == nil, "\(response)", sourceLocation: sourceLocation)
        #expect(response.body.contains("<entry"), sourceLocation: sourceLocation)
        #expect(
            response.body.contains(#"p1:etag="W/&quot;\#(etag)&quot;""#), "\(response.body)",
            sourceLocation: sourceLocation)
        let path = read ? "resources" : "registrations"
        #expect(
            element("id", in: response.body)?.matches(#"^https?://[^/]+/myhub/\#(path)/\#(id)\?api-version="#) == true,
            "\(response.body)", sourceLocation: sourceLocation)
        #expect(element("ETag", in: response.body) == "\(etag)", sourceLocation: sourceLocation)
        #expect(element("RegistrationId", in: response.body) == id, sourceLocation: sourceLocation)
        #expect(
            response.body.contains(#"<title type="text">\#(id)</title>"#), "\(response.body)",
            sourceLocation: sourceLocation)
    }

    // MARK: the notify-users flow

    @Test("notify-users flow: registration id, upsert, native apple send to a username: tag, 410 after delete")
    func notifyUsersFlow() async throws {
        try await withEmulator { client, _ async throws in
            let aliceId = try await Self.newRegistrationId(client)
            let bobId = try await Self.newRegistrationId(client, path: "registrationids")
            #expect(aliceId != bobId)

            let upsert = try await Self.put(
                client, aliceId, appleRegistrationEntry(token: apnsToken(0xA11CE), tags: "username:alice"))
            Self.expectEntry(upsert, id: aliceId, etag: 1)
            #expect(Self.element("Tags", in: upsert.body) == "username:alice")
            #expect(Self.element("DeviceToken", in: upsert.body) == apnsToken(0xA11CE))
            #expect(upsert.body.contains("AppleRegistrationDescription"))
            Self.expectEntry(
                try await Self.put(
                    client, bobId, appleRegistrationEntry(token: apnsToken(0xB0B), tags: "username:bob")),
                id: bobId, etag: 1)

            // Upsert again (the tutorial always PUTs): same id, ETag moves on.
            let again = try await Self.put(
                client, aliceId, appleRegistrationEntry(token: apnsToken(0xA11CE), tags: "username:alice"),
                ifMatch: "*")
            Self.expectEntry(again, id: aliceId, etag: 2)

            let alert = #"{"aps":{"alert":"Hello alice"}}"#
            let send = try await client.sendNative("apple", alert, tags: "username:alice")
            #expect(send.status == 201, "\(send)")
            let deliveries = try await client.deliveries()
            #expect(deliveries.count == 1)
            let delivery = try #require(deliveries.first)
            #expect(delivery["payload"] as? String == alert)
            #expect(delivery["registrationId"] as? String == aliceId)
            #expect(delivery["installationId"] is NSNull)
            #expect(delivery["template"] is NSNull)
            #expect(delivery["platform"] as? String == "apns")
            #expect(delivery["pushChannel"] as? String == apnsToken(0xA11CE))
            #expect(delivery["notificationId"] as? String == send.locationLastSegment)

            let delete = try await client.request(
                .delete, "/myhub/registrations/\(aliceId)?\(NH.api)", auth: Token.listen(),
                headers: [("If-Match", "*")])
            #expect(delete.status == 200, "\(delete)")
            #expect(delete.body.isEmpty)
            AuthTests.expectError(
                try await client.request(.get, "/myhub/registrations/\(aliceId)?\(NH.api)", auth: Token.listen()), 404)

            // The deleted id is gone for good: the upsert answers 410 and the client asks for a new id.
            let gone = try await Self.put(
                client, aliceId, appleRegistrationEntry(token: apnsToken(0xA11CE), tags: "username:alice"))
            #expect(gone.status == 410, "\(gone)")

            let before = try await client.deliveries().count
            #expect(try await client.sendNative("apple", alert, tags: "username:alice").status == 201)
            #expect(try await client.deliveries().count == before, "a deleted registration must not receive")

            let freshId = try await Self.newRegistrationId(client)
            Self.expectEntry(
                try await Self.put(
                    client, freshId, appleRegistrationEntry(token: apnsToken(0xA11CE), tags: "username:alice")),
                id: freshId, etag: 1)
            #expect(try await client.sendNative("apple", alert, tags: "username:alice").status == 201)
            let last = try await client.deliveries().last
            #expect(last?["registrationId"] as? String == freshId)
        }
    }

    // MARK: ETag / If-Match

    @Test("If-Match: '*', matching \"n\" and W/\"n\" succeed; a stale ETag → 412")
    func ifMatch() async throws {
        try await withEmulator { client, _ async throws in
            let id = try await Self.newRegistrationId(client)
            let entry = appleRegistrationEntry(token: apnsToken(5), tags: "t")
            Self.expectEntry(try await Self.put(client, id, entry), id: id, etag: 1)
            Self.expectEntry(try await Self.put(client, id, entry, ifMatch: "\"1\""), id: id, etag: 2)
            Self.expectEntry(try await Self.put(client, id, entry, ifMatch: "W/\"2\""), id: id, etag: 3)
            let stale = try await Self.put(client, id, entry, ifMatch: "\"1\"")
            #expect(stale.status == 412, "\(stale)")
            let staleDelete = try await client.request(
                .delete, "/myhub/registrations/\(id)?\(NH.api)", auth: Token.listen(),
                headers: [("If-Match", "\"2\"")])
            #expect(staleDelete.status == 412, "\(staleDelete)")
            let get = try await client.request(.get, "/myhub/registrations/\(id)?\(NH.api)", auth: Token.listen())
            Self.expectEntry(get, id: id, etag: 3, read: true)
            let delete = try await client.request(
                .delete, "/myhub/registrations/\(id)?\(NH.api)", auth: Token.listen(),
                headers: [("If-Match", "W/\"3\"")])
            #expect(delete.status == 200, "\(delete)")
        }
    }

    /// The .NET SDK's `DeleteRegistrationAsync(id)` sends `If-Match: "*"` (it quotes the ETag it is given), and NH's
    /// recorded answer is 200 with an empty body (DeleteRegistrationAsync_DeleteAppleNativeRegistrationByRegistrationId
    /// in the SDK's MockData); a PUT with it overwrites whatever ETag the registration has.
    @Test("If-Match: \"*\" (a quoted star, as the .NET SDK sends it) matches any ETag, for DELETE and PUT")
    func quotedStar() async throws {
        try await withEmulator { client, _ async throws in
            let id = try await Self.newRegistrationId(client)
            let entry = appleRegistrationEntry(token: apnsToken(7), tags: "t")
            Self.expectEntry(try await Self.put(client, id, entry), id: id, etag: 1)
            Self.expectEntry(try await Self.put(client, id, entry, ifMatch: "\"*\""), id: id, etag: 2)
            let delete = try await client.request(
                .delete, "/myhub/registrations/\(id)?\(NH.api)", auth: Token.listen(),
                headers: [("If-Match", "\"*\"")])
            #expect(delete.status == 200, "\(delete)")
            #expect(delete.body.isEmpty)
            let gone = try await client.request(.get, "/myhub/registrations/\(id)?\(NH.api)", auth: Token.listen())
            #expect(gone.status == 404, "\(gone)")
        }
    }

    @Test("DELETE needs If-Match: none, or an unquoted ETag, is 412 'either missing or invalid' and deletes nothing")
    func deleteWithoutAValidIfMatch() async throws {
        try await withEmulator { client, _ async throws in
            let id = try await Self.newRegistrationId(client)
            Self.expectEntry(
                try await Self.put(client, id, appleRegistrationEntry(token: apnsToken(6), tags: "t")), id: id, etag: 1)
            for headers in [
                [], [("If-Match", "1")], [("If-Match", "W/1")], [("If-Match", "\"one\"")], [("If-Match", "")],
            ] {
                let refused = try await client.request(
                    .delete, "/myhub/registrations/\(id)?\(NH.api)", auth: Token.listen(), headers: headers)
                AuthTests.expectError(refused, 412, detailPrefix: "The ETag header is either missing or invalid")
            }
            // A PUT with an If-Match that is not an ETag is refused the same way; without one it overwrites.
            let badPut = try await Self.put(
                client, id, appleRegistrationEntry(token: apnsToken(6), tags: "t"), ifMatch: "1")
            AuthTests.expectError(badPut, 412, detailPrefix: "The ETag header is either missing or invalid")
            Self.expectEntry(
                try await client.request(.get, "/myhub/registrations/\(id)?\(NH.api)", auth: Token.listen()), id: id,
                etag: 1,
                read: true)
            let delete = try await client.request(
                .delete, "/myhub/registrations/\(id)?\(NH.api)", auth: Token.listen(),
                headers: [("If-Match", "\"1\"")])
            #expect(delete.status == 200, "\(delete)")
        }
    }

    @Test("DELETE or GET of an absent registration → 404")
    func absent() async throws {
        try await withEmulator { client, _ async throws in
            let delete = try await client.request(
                .delete, "/myhub/registrations/1-2-3?\(NH.api)", auth: Token.listen(),
                headers: [("If-Match", "*")])
            #expect(delete.status == 404, "\(delete)")
            AuthTests.expectError(
                try await client.request(.get, "/myhub/registrations/1-2-3?\(NH.api)", auth: Token.listen()), 404)
        }
    }

    // MARK: create / read

    @Test("POST registrations creates: 200 + entry with ETag 1 and the new id")
    func createByPost() async throws {
        try await withEmulator { client, _ async throws in
            let response = try await client.request(
                .post, "/myhub/registrations?\(NH.api)", auth: Token.listen(),
                headers: [("Content-Type", atomEntryType)],
                body: appleRegistrationEntry(token: apnsToken(9), tags: "tagA, tagB"))
            #expect(response.status == 200, "\(response)")
            let id = try #require(Self.element("RegistrationId", in: response.body))
            Self.expectEntry(response, id: id, etag: 1)
            // "tag1, tag2" is trimmed on input and emitted without spaces.
            #expect(Self.element("Tags", in: response.body) == "tagA,tagB")
            #expect(Self.element("ExpirationTime", in: response.body)?.hasPrefix("9999-12-31T23:59:59") == true)
            let get = try await client.request(.get, "/myhub/registrations/\(id)?\(NH.api)", auth: Token.listen())
            Self.expectEntry(get, id: id, etag: 1, read: true)
            #expect(Self.element("DeviceToken", in: get.body) == apnsToken(9))
        }
    }

    /// How the .NET SDK writes every create, update and upsert (DataContractSerializer): the base type as the element,
    /// the concrete type in `i:type`. NH answers 200 with the typed description
    /// (CreateRegistrationAsync_CreateFcmNativeRegistration_GetFcmRegistrationType in the SDK's MockData).
    @Test("a <RegistrationDescription i:type=\"…\"> is read as that type, native and template, on POST and PUT")
    func typedDescription() async throws {
        try await withEmulator { client, _ async throws in
            func entry(_ type: String, _ fields: String) -> String {
                #"<entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml">"#
                    + #"<RegistrationDescription xmlns:i="http://www.w3.org/2001/XMLSchema-instance" i:type="\#(type)" "#
                    + #"xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect">\#(fields)"#
                    + "</RegistrationDescription></content></entry>"
            }
            let native = try await client.request(
                .post, "/myhub/registrations?\(NH.api)", auth: Token.listen(),
                headers: [("Content-Type", atomEntryType)],
                body: entry(
                    "GcmRegistrationDescription", "<Tags>a,b</Tags><GcmRegistrationId>gcm-1</GcmRegistrationId>"))
            #expect(native.status == 200 || native.status == 201, "\(native)")
            #expect(native.body.contains("<GcmRegistrationDescription"), "\(native)")
            #expect(Self.element("GcmRegistrationId", in: native.body) == "gcm-1")
            #expect(Self.element("Tags", in: native.body) == "a,b")
            let id = try #require(Self.element("RegistrationId", in: native.body))
            let template = try await Self.put(
                client, id,
                entry(
                    "GcmTemplateRegistrationDescription",
                    "<GcmRegistrationId>gcm-1</GcmRegistrationId>"
                        + #"<BodyTemplate><![CDATA[{"data":{"m":"$(m)"}}]]></BodyTemplate>"#))
            #expect(template.status == 200, "\(template)")
            #expect(template.body.contains("<GcmTemplateRegistrationDescription"), "\(template)")
            // No i:type: still not a registration.
            let untyped = try await client.request(
                .post, "/myhub/registrations?\(NH.api)", auth: Token.listen(),
                headers: [("Content-Type", atomEntryType)],
                body: #"<entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml">"#
                    + "<RegistrationDescription><GcmRegistrationId>x</GcmRegistrationId></RegistrationDescription>"
                    + "</content></entry>")
            #expect(untyped.status == 400, "\(untyped)")
        }
    }

    @Test("an invalid entry → 400")
    func invalidEntry() async throws {
        try await withEmulator { client, _ async throws in
            let id = try await Self.newRegistrationId(client)
            #expect(try await Self.put(client, id, "<entry>").status == 400)
            let noToken = appleRegistrationEntry(token: "", tags: "t").replacingOccurrences(
                of: "<DeviceToken></DeviceToken>", with: "")
            #expect(try await Self.put(client, id, noToken).status == 400)
            let tooMany = (1...61).map { "t\($0)" }.joined(separator: ",")
            #expect(
                try await Self.put(client, id, appleRegistrationEntry(token: apnsToken(1), tags: tooMany)).status == 400
            )
            let sixty = (1...60).map { "t\($0)" }.joined(separator: ",")
            #expect(
                try await Self.put(client, id, appleRegistrationEntry(token: apnsToken(1), tags: sixty)).status == 200)
        }
    }

    @Test("template registration: a template send renders it, delivery names the template")
    func templateRegistration() async throws {
        try await withEmulator { client, _ async throws in
            let id = try await Self.newRegistrationId(client)
            let entry = appleTemplateRegistrationEntry(
                token: apnsToken(0x7E), tags: "news",
                template: ##"{"aps":{"alert":"$(message)","badge":"#(count)"}}"##,
                name: "Template Name")
            let put = try await Self.put(client, id, entry)
            Self.expectEntry(put, id: id, etag: 1)
            #expect(put.body.contains("AppleTemplateRegistrationDescription"))
            #expect(Self.element("TemplateName", in: put.body) == "Template Name")

            // Native apple sends skip template registrations.
            #expect(try await client.sendNative("apple", #"{"aps":{"alert":"native"}}"#, tags: "news").status == 201)
            #expect(try await client.deliveries().isEmpty)

            #expect(try await client.sendTemplate(#"{"message":"Hi","count":"3"}"#, tags: "news").status == 201)
            let delivery = try #require(try await client.deliveries().first)
            #expect(delivery["payload"] as? String == #"{"aps":{"alert":"Hi","badge":3}}"#)
            #expect(delivery["template"] as? String == "Template Name")
            #expect(delivery["registrationId"] as? String == id)
        }
    }

    @Test("a Windows template registration needs WnsHeaders with X-WNS-Type")
    func windowsTemplateNeedsHeaders() async throws {
        try await withEmulator { client, _ async throws in
            let id = try await Self.newRegistrationId(client)
            func entry(_ headers: String) -> String {
                """
                <entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml">\
                <WindowsTemplateRegistrationDescription xmlns:i="http://www.w3.org/2001/XMLSchema-instance" \
                xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect">\
                <Tags>w</Tags><ChannelUri>https://db5.notify.windows.com/?token=abc</ChannelUri>\
                <BodyTemplate><![CDATA[<toast><visual><binding template="ToastText01"><text id="1">$(message)</text></binding></visual></toast>]]></BodyTemplate>\
                \(headers)<TemplateName>toast</TemplateName>\
                </WindowsTemplateRegistrationDescription></content></entry>
                """
            }
            let missing = try await Self.put(client, try await Self.newRegistrationId(client), entry(""))
            #expect(missing.status == 400, "WnsHeaders is required (§4.2): \(missing)")
            let noType = try await Self.put(
                client, try await Self.newRegistrationId(client),
                entry("<WnsHeaders><WnsHeader><Header>X-WNS-Tag</Header><Value>a</Value></WnsHeader></WnsHeaders>"))
            #expect(noType.status == 400, "WnsHeaders must contain X-WNS-Type (§4.2): \(noType)")
            _ = try await client.request(.delete, "/_emulator/deliveries")
            let ok = try await Self.put(
                client, id,
                entry(
                    "<WnsHeaders><WnsHeader><Header>X-WNS-Type</Header><Value>wns/toast</Value></WnsHeader></WnsHeaders>"
                ))
            Self.expectEntry(ok, id: id, etag: 1)
            #expect(try await client.sendTemplate(#"{"message":"hi"}"#, tags: "w").status == 201)
            let delivery = try #require(try await client.deliveries().first { $0["registrationId"] as? String == id })
            #expect(delivery["platform"] as? String == "wns")
            #expect((delivery["payload"] as? String)?.contains(#"<text id="1">hi</text>"#) == true)
        }
    }

    @Test("FcmV1 native registration receives fcmv1 sends")
    func fcmV1Registration() async throws {
        try await withEmulator { client, _ async throws in
            let id = try await Self.newRegistrationId(client)
            let entry = """
                <entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml">\
                <FcmV1RegistrationDescription xmlns:i="http://www.w3.org/2001/XMLSchema-instance" \
                xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect">\
                <Tags>android</Tags><FcmV1RegistrationId>fcm-reg-token-1</FcmV1RegistrationId>\
                </FcmV1RegistrationDescription></content></entry>
                """
            let put = try await Self.put(client, id, entry)
            Self.expectEntry(put, id: id, etag: 1)
            #expect(Self.element("FcmV1RegistrationId", in: put.body) == "fcm-reg-token-1")
            let message = #"{"message":{"notification":{"title":"t","body":"b"}}}"#
            #expect(try await client.sendNative("fcmv1", message, tags: "android").status == 201)
            #expect(try await client.sendNative("apple", #"{"aps":{"alert":"x"}}"#, tags: "android").status == 201)
            let deliveries = try await client.deliveries()
            #expect(deliveries.count == 1)
            #expect(deliveries.first?["platform"] as? String == "fcmv1")
            #expect(deliveries.first?["pushChannel"] as? String == "fcm-reg-token-1")
            #expect(deliveries.first?["payload"] as? String == message)
        }
    }

    // MARK: listing

    @Test("list by handle ($filter) and by tag; feed content type")
    func listing() async throws {
        try await withEmulator { client, _ async throws in
            for (seed, tag) in [(1, "red"), (2, "red"), (3, "blue")] {
                let id = try await Self.newRegistrationId(client)
                #expect(
                    try await Self.put(client, id, appleRegistrationEntry(token: apnsToken(seed), tags: tag)).status
                        == 200)
            }
            let byToken = try await client.request(
                .get, "/myhub/registrations?$filter=DeviceToken%20eq%20'\(apnsToken(2))'&\(NH.api)",
                auth: Token.listen())
            #expect(byToken.status == 200, "\(byToken)")
            #expect(normalizedContentType(byToken.header("Content-Type")) == "application/xml")
            #expect(byToken.body.contains("<feed"))
            #expect(Self.entryCount(byToken.body) == 1)
            #expect(byToken.body.contains(apnsToken(2)))

            // .NET: ChannelUri for every platform, form-encoded.
            let dotnet = try await client.request(
                .get, "/myhub/registrations?\(NH.api)&$filter=ChannelUri+eq+%27\(apnsToken(3))%27",
                auth: Token.listen())
            #expect(dotnet.status == 200, "\(dotnet)")
            #expect(Self.entryCount(dotnet.body) == 1)
            #expect(dotnet.body.contains(apnsToken(3)))

            let byTag = try await client.request(.get, "/myhub/tags/red/registrations?\(NH.api)", auth: Token.full())
            #expect(byTag.status == 200, "\(byTag)")
            #expect(Self.entryCount(byTag.body) == 2)

            let all = try await client.request(.get, "/myhub/registrations?\(NH.api)", auth: Token.full())
            #expect(all.status == 200, "\(all)")
            #expect(Self.entryCount(all.body) == 3)
        }
    }

    @Test("paging with $top and x-ms-continuationtoken")
    func paging() async throws {
        try await withEmulator { client, _ async throws in
            var ids: Set<String> = []
            for seed in 1...5 {
                let id = try await Self.newRegistrationId(client)
                ids.insert(id)
                #expect(
                    try await Self.put(client, id, appleRegistrationEntry(token: apnsToken(seed), tags: "p")).status
                        == 200)
            }
            var seen: [String] = []
            var continuation: String?
            var pages = 0
            repeat {
                let query = "$top=2&\(NH.api)" + (continuation.map { "&continuationtoken=\($0)" } ?? "")
                let page = try await client.request(.get, "/myhub/registrations?\(query)", auth: Token.full())
                #expect(page.status == 200, "\(page)")
                #expect(Self.entryCount(page.body) <= 2)
                var rest = page.body[...]
                while let start = rest.range(of: "<RegistrationId>"), let end = rest.range(of: "</RegistrationId>") {
                    seen.append(String(rest[start.upperBound..<end.lowerBound]))
                    rest = rest[end.upperBound...]
                }
                continuation = page.header("x-ms-continuationtoken")
                pages += 1
            } while continuation != nil && pages < 10
            #expect(pages == 3)
            #expect(seen.count == 5)
            #expect(Set(seen) == ids)
        }
    }
}
