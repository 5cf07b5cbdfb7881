import Foundation
import HTTPTypes
import HubEmulator
import HubWire
import Testing

/// §5.1, §5.2, §5.5, §5.6, §6, §7, §8: sends, targeting, templates, limits.
@Suite("Sends (§5–§8)")
struct SendTests {
    static let seedChannel = "62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA"

    static func expectCreated(
        _ response: RawResponse, hub: String = NH.hub, query: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == 201, "\(response)", sourceLocation: sourceLocation)
        #expect(response.body.isEmpty, "\(response)", sourceLocation: sourceLocation)
        // Empty and unlabelled, as today's service answers a send (the JS SDK's recordings, 2024).
        #expect(response.header("Content-Type") == nil, "\(response)", sourceLocation: sourceLocation)
        #expect(response.header("Content-Length") == "0", "\(response)", sourceLocation: sourceLocation)
        let location = response.header("Location") ?? ""
        #expect(
            location.matches(#"^https?://[^/]+/\#(hub)/messages/[^/?]+\?api-version=2015-01\#(query)$"#),
            "Location: \(location)",
            sourceLocation: sourceLocation)
    }

    static func installation(
        _ id: String, platform: String = "apns", channel: String, tags: [String] = [], userId: String? = nil,
        templates: [String: String] = [:]
    ) -> String {
        let tagList = tags.map { "\"\($0)\"" }.joined(separator: ",")
        let templateList = templates.map { name, body in
            let escaped = body.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(name)\":{\"body\":\"\(escaped)\"}"
        }.joined(separator: ",")
        return "{\"installationId\":\"\(id)\",\"platform\":\"\(platform)\",\"pushChannel\":\"\(channel)\""
            + (userId.map { ",\"userId\":\"\($0)\"" } ?? "")
            + ",\"tags\":[\(tagList)],\"templates\":{\(templateList)}}"
    }

    // MARK: the seed tutorial

    @Test("seed tutorial: PUT installation (tag 12345, genericTemplate), GET it, template send, see the APNs delivery")
    func seedTutorial() async throws {
        try await withEmulator { client, _ async throws in
            let put = try await client.request(
                .put, "/myhub/installations/postman-1?api-version=2015-01",
                auth: Token.pythonSample(),
                headers: [("Content-Type", "application/json")],
                body: seedInstallation(id: "postman-1", channel: Self.seedChannel))
            #expect(put.status == 200, "\(put)")

            let get = try await client.request(
                .get, "/myhub/installations/postman-1?api-version=2015-01", auth: Token.pythonSample())
            #expect(get.status == 200, "\(get)")
            let installation = try #require(get.json as? [String: Any])
            #expect(installation["installationId"] as? String == "postman-1")
            #expect(installation["tags"] as? [String] == ["12345"])
            #expect(
                ((installation["templates"] as? [String: Any])?["genericTemplate"] as? [String: Any])?["body"]
                    as? String
                    == #"{"aps":{"alert":"$(message)"}}"#)

            let send = try await client.request(
                .post, "/myhub/messages?api-version=2015-01", auth: Token.pythonSample(),
                headers: [
                    ("ServiceBusNotification-Format", "template"),
                    ("ServiceBusNotification-Tags", "12345"),
                    ("Content-Type", "application/json;charset=utf-8"),
                ],
                body: #"{"message":"Hello from Postman!"}"#)
            Self.expectCreated(send)

            let deliveries = try await client.deliveries()
            #expect(deliveries.count == 1)
            let delivery = try #require(deliveries.first)
            #expect(delivery["payload"] as? String == #"{"aps":{"alert":"Hello from Postman!"}}"#)
            #expect(delivery["template"] as? String == "genericTemplate")
            #expect(delivery["installationId"] as? String == "postman-1")
            #expect(delivery["registrationId"] is NSNull)
            #expect(delivery["platform"] as? String == "apns")
            #expect(delivery["pushChannel"] as? String == Self.seedChannel)
            #expect(delivery["hub"] as? String == "myhub")
            #expect(delivery["notificationId"] as? String == send.locationLastSegment)
        }
    }

    // MARK: responses

    @Test("Basic tier: 201 without Location")
    func basicTierNoLocation() async throws {
        try await withEmulator(NH.configuration(tier: .basic)) { client, _ async throws in
            #expect(try await client.putInstallation("b-1", seedInstallation(id: "b-1")).status == 200)
            let send = try await client.sendTemplate(#"{"message":"x"}"#, tags: "12345")
            #expect(send.status == 201, "\(send)")
            #expect(send.header("Location") == nil)
            #expect(try await client.deliveries().count == 1)
        }
    }

    @Test("the documented `messages/` spelling is accepted")
    func trailingSlash() async throws {
        try await withEmulator { client, _ async throws in
            let send = try await client.request(
                .post, "/myhub/messages/?\(NH.api)", auth: Token.full(),
                headers: [
                    ("ServiceBusNotification-Format", "apple"),
                    ("Content-Type", "application/json;charset=utf-8"),
                ],
                body: #"{"aps":{"alert":"x"}}"#)
            #expect(send.status == 201, "\(send)")
        }
    }

    @Test("malformed sends → 400")
    func malformedSends() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.sendNative("pigeon", "{}", tags: nil).status == 400)
            #expect(try await client.sendTemplate(#"{"message":1}"#, tags: nil).status == 400)
            #expect(try await client.sendTemplate(#"{"message":{"nested":"x"}}"#, tags: nil).status == 400)
            #expect(try await client.sendTemplate(#"["message"]"#, tags: nil).status == 400)
            #expect(try await client.sendTemplate("not json", tags: nil).status == 400)
            #expect(try await client.sendTemplate(#"{"Message":"a","message":"b"}"#, tags: nil).status == 400)
            #expect(try await client.sendTemplate(#"{"message":"x"}"#, tags: "a &&").status == 400)
            #expect(try await client.sendTemplate(#"{"message":"x"}"#, tags: "(a || b").status == 400)
            let noWnsType = try await client.sendNative(
                "windows", "<toast/>", tags: nil, contentType: "application/xml")
            #expect(noWnsType.status == 400, "windows needs X-WNS-Type (§5.1): \(noWnsType)")
            #expect(try await client.deliveries().isEmpty)
        }
    }

    @Test(
        "native bodies are checked as NH checks them: FCM v1 in {\"message\":{…}} without a target, APNs JSON, WNS XML per X-WNS-Type"
    )
    func nativeBodiesAreChecked() async throws {
        try await withEmulator { client, _ async throws in
            func wns(_ type: String, _ body: String) async throws -> RawResponse {
                try await client.sendNative(
                    "windows", body, tags: nil,
                    contentType: type == "wns/raw" ? "application/octet-stream" : "text/xml",
                    extraHeaders: [("X-WNS-Type", type)])
            }
            let refused: [(RawResponse, String)] = [
                (
                    try await client.sendNative("fcmv1", #"{"notification":{"title":"Hi"}}"#, tags: nil),
                    "The FCM v1 payload must be a JSON object with a \"message\" object"
                ),
                (
                    try await client.sendNative(
                        "fcmv1", #"{"message":{"token":"abc","notification":{"title":"Hi"}}}"#, tags: nil),
                    "The FCM v1 message names its target ('token')"
                ),
                (
                    try await client.sendNative("fcmv1", #"{"message":"Hi"}"#, tags: nil),
                    "The FCM v1 payload must be a JSON object"
                ),
                (try await client.sendNative("apple", "alert: hi", tags: nil), "The APNs payload is not a JSON object"),
                (try await client.sendNative("apple", #"["aps"]"#, tags: nil), "The APNs payload is not a JSON object"),
                (
                    try await wns("wns/toast", "<tile><visual/></tile>"),
                    "The Windows toast notification (wns/toast) must have a <toast> root element, not <tile>"
                ),
                (
                    try await wns("wns/badge", "<badge value=\"3\">"),
                    "The Windows badge notification is not well-formed XML"
                ),
                (try await wns("wns/other", "<toast/>"), "X-WNS-Type 'wns/other' is not one of"),
            ]
            for (response, detail) in refused { AuthTests.expectError(response, 400, detailPrefix: detail) }
            #expect(
                try await client.sendNative("fcmv1", #"{"message":{"notification":{"title":"Hi"}}}"#, tags: nil).status
                    == 201)
            #expect(try await client.sendNative("apple", #"{"aps":{"alert":"Hi"}}"#, tags: nil).status == 201)
            #expect(
                try await wns(
                    "wns/toast",
                    "<toast><visual><binding template=\"ToastText01\"><text id=\"1\">Hi</text></binding></visual></toast>"
                ).status == 201)
            #expect(try await wns("wns/raw", "anything at all, not XML").status == 201)
            // A direct send is checked the same way.
            let direct = try await client.sendNative(
                "fcmv1", #"{"notification":{}}"#, tags: nil, query: "&direct",
                extraHeaders: [("ServiceBusNotification-DeviceHandle", "fcm-token-1")])
            AuthTests.expectError(direct, 400, detailPrefix: "The FCM v1 payload must be")
        }
    }

    // MARK: targeting (§6)

    @Test("native sends reach native devices of that platform only; broadcast without tags")
    func nativeTargeting() async throws {
        try await withEmulator { client, _ async throws in
            #expect(
                try await client.putInstallation(
                    "apns-1", Self.installation("apns-1", channel: apnsToken(1), tags: ["x"])
                ).status == 200)
            #expect(
                try await client.putInstallation(
                    "apns-2", Self.installation("apns-2", channel: apnsToken(2), tags: ["y"])
                ).status == 200)
            #expect(
                try await client.putInstallation(
                    "fcm-1", Self.installation("fcm-1", platform: "fcmv1", channel: "fcm-tok", tags: ["x"])
                ).status == 200)

            Self.expectCreated(try await client.sendNative("apple", #"{"aps":{"alert":"all"}}"#, tags: nil))
            var deliveries = try await client.deliveries()
            #expect(Set(deliveries.compactMap { $0["installationId"] as? String }) == ["apns-1", "apns-2"])
            #expect(deliveries.allSatisfy { $0["template"] is NSNull && $0["registrationId"] is NSNull })

            let last = deliveries.compactMap { $0["id"] as? Int }.max() ?? 0
            let fcm = #"{"message":{"notification":{"title":"t","body":"b"}}}"#
            Self.expectCreated(try await client.sendNative("fcmv1", fcm, tags: "x"))
            deliveries = try await client.deliveries(since: last)
            #expect(deliveries.count == 1)
            #expect(deliveries.first?["installationId"] as? String == "fcm-1")
            #expect(deliveries.first?["platform"] as? String == "fcmv1")
            #expect(deliveries.first?["pushChannel"] as? String == "fcm-tok")
            #expect(deliveries.first?["payload"] as? String == fcm)
        }
    }

    @Test("tag expressions: &&, ||, !, parentheses, $InstallationId, $UserId, template-name tag")
    func tagExpressions() async throws {
        try await withEmulator { client, _ async throws in
            let template = ["t": #"{"aps":{"alert":"$(message)"}}"#]
            let devices: [(String, [String], String?)] = [
                ("d1", ["follows_RedSox", "location_Boston"], "ann"),
                ("d2", ["follows_Cardinals", "location_Boston"], "ann"),
                ("d3", ["follows_RedSox", "location_NYC"], nil),
                ("d4", ["follows_RedSox", "location_Boston", "muted"], nil),
            ]
            for (index, (id, tags, user)) in devices.enumerated() {
                let body = Self.installation(
                    id, channel: apnsToken(index + 1), tags: tags, userId: user, templates: template)
                #expect(try await client.putInstallation(id, body).status == 200)
            }
            func targets(_ expression: String) async throws -> Set<String> {
                _ = try await client.request(.delete, "/_emulator/deliveries")
                let send = try await client.sendTemplate(#"{"message":"m"}"#, tags: expression)
                #expect(send.status == 201, "\(expression): \(send)")
                return Set(try await client.deliveries().compactMap { $0["installationId"] as? String })
            }
            #expect(
                try await targets("(follows_RedSox || follows_Cardinals) && location_Boston && !muted") == ["d1", "d2"])
            #expect(try await targets("follows_RedSox&&!location_Boston") == ["d3"])
            #expect(try await targets("follows_RedSox || follows_Cardinals && location_NYC") == ["d1", "d3", "d4"])
            #expect(try await targets("$InstallationId:{d3}") == ["d3"])
            #expect(try await targets("$UserId:{ann}") == ["d1", "d2"])
            #expect(try await targets("t && muted") == ["d4"])
            #expect(try await targets("nobody") == [])
            #expect(try await targets("!muted") == ["d1", "d2", "d3"])
            #expect(try await targets("( follows_Cardinals||location_NYC )&&!muted") == ["d2", "d3"])
            #expect(try await targets("!muted && follows_RedSox || follows_Cardinals") == ["d1", "d2", "d3"])
        }
    }

    @Test("tag-expression limits: 20 OR-only tags OK, 21 → 400; 6 tags with && OK, 7 → 400")
    func tagExpressionLimits() async throws {
        try await withEmulator { client, _ async throws in
            let or20 = (1...20).map { "t\($0)" }.joined(separator: " || ")
            let or21 = (1...21).map { "t\($0)" }.joined(separator: " || ")
            let and6 = (1...6).map { "t\($0)" }.joined(separator: " && ")
            let mixed7 = "(" + (1...6).map { "t\($0)" }.joined(separator: " || ") + ") && t7"
            #expect(try await client.sendTemplate(#"{"message":"x"}"#, tags: or20).status == 201)
            #expect(try await client.sendTemplate(#"{"message":"x"}"#, tags: or21).status == 400)
            #expect(try await client.sendTemplate(#"{"message":"x"}"#, tags: and6).status == 201)
            #expect(try await client.sendTemplate(#"{"message":"x"}"#, tags: mixed7).status == 400)
            // Parentheses do not make an OR-only expression mixed.
            let or20Grouped =
                "(" + (1...10).map { "t\($0)" }.joined(separator: "||") + ")||("
                + (11...20).map { "t\($0)" }.joined(separator: "||") + ")"
            #expect(try await client.sendTemplate(#"{"message":"x"}"#, tags: or20Grouped).status == 201)
            let not7 = (1...7).map { "!t\($0)" }.joined(separator: " || ")
            #expect(try await client.sendTemplate(#"{"message":"x"}"#, tags: not7).status == 400)
        }
    }

    @Test("tag matching is exact (case-sensitive) by default")
    func tagCase() async throws {
        try await withEmulator { client, _ async throws in
            #expect(
                try await client.putInstallation(
                    "c-1", Self.installation("c-1", channel: apnsToken(1), tags: ["Sports"])
                ).status == 200)
            #expect(try await client.sendNative("apple", #"{"aps":{"alert":"x"}}"#, tags: "sports").status == 201)
            #expect(try await client.deliveries().isEmpty)
            #expect(try await client.sendNative("apple", #"{"aps":{"alert":"x"}}"#, tags: "Sports").status == 201)
            #expect(try await client.deliveries().count == 1)
        }
    }

    @Test("a deleted installation receives nothing")
    func deletedInstallation() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation("d-1", seedInstallation(id: "d-1")).status == 200)
            #expect(
                try await client.request(.delete, "/myhub/installations/d-1?\(NH.api)", auth: Token.full()).status
                    == 204)
            #expect(try await client.sendTemplate(#"{"message":"x"}"#, tags: "12345").status == 201)
            #expect(try await client.sendNative("apple", #"{"aps":{"alert":"x"}}"#, tags: nil).status == 201)
            #expect(try await client.deliveries().isEmpty)
        }
    }

    // MARK: templates (§7)

    @Test("one delivery per matching template; rendering per §7.4")
    func templateRendering() async throws {
        try await withEmulator { client, _ async throws in
            let templates = [
                "plain": #"{"aps":{"alert":"$(message)"}}"#,
                "short": #"{"aps":{"alert":".(title, 20)"}}"#,
                "badge": ##"{"aps":{"badge":"#(badge)"}}"##,
                "composite": #"{"aps":{"alert":"{'It''s ' + $(First) + ' ' + $(last)}"}}"#,
                "literal": #"{"aps":{"alert":"Hello $(first)"}}"#,
                "missing": #"{"aps":{"alert":"$(missing)"}}"#,
                "url": #"{"data":{"link":"%(url)"}}"#,
                "cut": #"{"aps":{"alert":"$(title, 7)"}}"#,
                "fits": #"{"aps":{"alert":".(first, 20)"}}"#,
                "notnumber": ##"{"aps":{"badge":"#(first)"}}"##,
                "nonumber": ##"{"aps":{"badge":"#(nothing)"}}"##,
            ]
            #expect(
                try await client.putInstallation(
                    "tpl-1",
                    Self.installation(
                        "tpl-1", channel: apnsToken(1), tags: ["fans"],
                        templates: templates)
                ).status == 200)
            let properties =
                #"{"message":"He said \"hi\"","title":"This is the title line","badge":"40","first":"Ada","last":"Lovelace","url":"a b&c"}"#
            Self.expectCreated(try await client.sendTemplate(properties, tags: "fans"))
            let deliveries = try await client.deliveries()
            #expect(deliveries.count == templates.count)
            let byTemplate = Dictionary(
                deliveries.map { (($0["template"] as? String) ?? "?", ($0["payload"] as? String) ?? "") },
                uniquingKeysWith: { a, _ in a })
            #expect(
                jsonEqual(byTemplate["plain"] ?? "", #"{"aps":{"alert":"He said \"hi\""}}"#),
                "\(byTemplate["plain"] ?? "")")
            #expect(byTemplate["short"] == #"{"aps":{"alert":"This is the title..."}}"#)
            #expect(byTemplate["badge"] == #"{"aps":{"badge":40}}"#)
            #expect(byTemplate["composite"] == #"{"aps":{"alert":"It's Ada Lovelace"}}"#)
            #expect(byTemplate["literal"] == #"{"aps":{"alert":"Hello $(first)"}}"#)
            #expect(byTemplate["missing"] == #"{"aps":{"alert":""}}"#)
            #expect(byTemplate["url"] == #"{"data":{"link":"a%20b%26c"}}"#)
            #expect(byTemplate["cut"] == #"{"aps":{"alert":"This is"}}"#)
            #expect(byTemplate["fits"] == #"{"aps":{"alert":"Ada"}}"#)
            #expect(byTemplate["notnumber"] == #"{"aps":{"badge":"Ada"}}"#)
            #expect(byTemplate["nonumber"] == #"{"aps":{"badge":""}}"#)

            // A tag equal to a template name selects that template only.
            _ = try await client.request(.delete, "/_emulator/deliveries")
            Self.expectCreated(try await client.sendTemplate(#"{"badge":"7"}"#, tags: "badge"))
            let only = try await client.deliveries()
            #expect(only.count == 1)
            #expect(only.first?["template"] as? String == "badge")
            #expect(only.first?["payload"] as? String == #"{"aps":{"badge":7}}"#)
        }
    }

    @Test("WNS XML template with X-WNS-Type header")
    func wnsTemplate() async throws {
        try await withEmulator { client, _ async throws in
            let body = """
                {"installationId":"w-1","platform":"wns","pushChannel":"https://db5.notify.windows.com/?token=abc","tags":["w"],\
                "templates":{"toast":{"body":"<toast><visual><binding template=\\"ToastText01\\"><text id=\\"1\\">$(message)</text></binding></visual></toast>",\
                "headers":{"X-WNS-Type":"wns/toast"}}}}
                """
            #expect(try await client.putInstallation("w-1", body).status == 200)
            Self.expectCreated(try await client.sendTemplate(#"{"message":"Fish & <Chips>"}"#, tags: "w"))
            let delivery = try #require(try await client.deliveries().first)
            #expect(delivery["platform"] as? String == "wns")
            #expect(
                delivery["payload"] as? String
                    == #"<toast><visual><binding template="ToastText01"><text id="1">Fish &amp; &lt;Chips&gt;</text></binding></visual></toast>"#
            )
            let headers = (delivery["headers"] as? [String: String]) ?? [:]
            #expect(headers.first { $0.key.lowercased() == "x-wns-type" }?.value == "wns/toast", "\(headers)")
        }
    }

    @Test("template header values are expressions too: X-WNS-Tag: $(tagv) and apns-collapse-id: $(cid) arrive rendered")
    func templateHeaderValuesAreRendered() async throws {
        try await withEmulator { client, _ async throws in
            let wns = """
                {"installationId":"w-2","platform":"wns","pushChannel":"https://db5.notify.windows.com/?token=def","tags":["h"],\
                "templates":{"toast":{"body":"<toast><visual><binding template=\\"ToastText01\\"><text id=\\"1\\">$(message)</text></binding></visual></toast>",\
                "headers":{"X-WNS-Type":"wns/toast","X-WNS-Tag":"$(tagv)"}}}}
                """
            let apns = """
                {"installationId":"a-2","platform":"apns","pushChannel":"\(apnsToken(0xC1D))","tags":["h"],\
                "templates":{"alert":{"body":"{\\"aps\\":{\\"alert\\":\\"$(message)\\"}}","headers":{"apns-collapse-id":"digest-$(cid)","apns-priority":"10"}}}}
                """
            #expect(try await client.putInstallation("w-2", wns).status == 200)
            #expect(try await client.putInstallation("a-2", apns).status == 200)
            Self.expectCreated(
                try await client.sendTemplate(#"{"message":"Hi","tagv":"news-7","cid":"42"}"#, tags: "h"))
            let deliveries = try await client.deliveries()
            func headers(_ platform: String) -> [String: String] {
                let delivery = deliveries.first { $0["platform"] as? String == platform }
                return ((delivery?["headers"] as? [String: String]) ?? [:]).reduce(into: [:]) {
                    $0[$1.key.lowercased()] = $1.value
                }
            }
            #expect(headers("wns")["x-wns-tag"] == "news-7", "\(deliveries)")
            #expect(headers("wns")["x-wns-type"] == "wns/toast")
            #expect(headers("apns")["apns-collapse-id"] == "digest-42", "\(deliveries)")
            #expect(headers("apns")["apns-priority"] == "10")
        }
    }

    @Test("a send without ServiceBusNotification-Format is a template send (the header is optional for those)")
    func formatDefaultsToTemplate() async throws {
        try await withEmulator { client, _ async throws in
            let body = """
                {"installationId":"t-1","platform":"apns","pushChannel":"\(apnsToken(0xF0F))","tags":["fmt"],\
                "templates":{"alert":{"body":"{\\"aps\\":{\\"alert\\":\\"$(message)\\"}}"}}}
                """
            #expect(try await client.putInstallation("t-1", body).status == 200)
            let sent = try await client.request(
                .post, "/\(NH.hub)/messages?\(NH.api)", auth: Token.full(),
                headers: [("Content-Type", "application/json;charset=utf-8"), ("ServiceBusNotification-Tags", "fmt")],
                body: #"{"message":"no format header"}"#)
            Self.expectCreated(sent)
            #expect(
                try await client.deliveries().first?["payload"] as? String == #"{"aps":{"alert":"no format header"}}"#)
            // Direct sends still need a native format.
            let direct = try await client.request(
                .post, "/\(NH.hub)/messages?\(NH.api)&direct", auth: Token.full(),
                headers: [
                    ("Content-Type", "application/json;charset=utf-8"),
                    ("ServiceBusNotification-DeviceHandle", apnsToken(0xF0F)),
                ],
                body: #"{"aps":{"alert":"x"}}"#)
            #expect(direct.status == 400, "\(direct)")
        }
    }

    @Test("JSON escaping of substituted values: quotes, backslashes, control characters, non-ASCII")
    func jsonEscaping() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation("e-1", seedInstallation(id: "e-1")).status == 200)
            let properties = #"{"message":"Grüße 👋 \"q\" back\\slash\nnew\tline \u0001"}"#
            #expect(try await client.sendTemplate(properties, tags: "12345").status == 201)
            let payload = try #require(try await client.deliveries().first?["payload"] as? String)
            let parsed = parseJSON(payload) as? [String: [String: String]]
            #expect(parsed?["aps"]?["alert"] == "Grüße 👋 \"q\" back\\slash\nnew\tline \u{01}", "\(payload)")
        }
    }

    @Test("XML templates: attribute values and composites are expressions")
    func xmlExpressions() async throws {
        try await withEmulator { client, _ async throws in
            let body = """
                {"installationId":"x-1","platform":"wns","pushChannel":"https://db5.notify.windows.com/?token=x","tags":["x"],\
                "templates":{"toast":{"body":"<toast launch=\\"$(launch)\\"><visual><binding template=\\"ToastText01\\"><text id=\\"1\\">{'Hi, ' + $(first)}</text></binding></visual></toast>",\
                "headers":{"X-WNS-Type":"wns/toast"}}}}
                """
            let put = try await client.putInstallation("x-1", body)
            #expect(put.status == 200, "\(put)")
            #expect(try await client.sendTemplate(#"{"first":"Ada","launch":"a&b"}"#, tags: "x").status == 201)
            let payload = try #require(try await client.deliveries().first?["payload"] as? String)
            #expect(
                payload
                    == #"<toast launch="a&amp;b"><visual><binding template="ToastText01"><text id="1">Hi, Ada</text></binding></visual></toast>"#,
                "\(payload)")
        }
    }

    @Test("sends stay within their hub")
    func hubIsolation() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation("i-1", seedInstallation(id: "i-1")).status == 200)
            let other = try await client.request(
                .post, "/otherhub/messages?\(NH.api)", auth: Token.js(keyName: NH.otherName, key: NH.otherKey),
                headers: [
                    ("ServiceBusNotification-Format", "template"),
                    ("Content-Type", "application/json;charset=utf-8"),
                ],
                body: #"{"message":"x"}"#)
            Self.expectCreated(other, hub: NH.otherHub)
            #expect(try await client.deliveries().isEmpty)
        }
    }

    @Test("hub names may contain '/'; installation ids are percent-decoded path segments")
    func pathShapes() async throws {
        let configuration = EmulatorConfiguration(
            namespace: NH.namespace,
            hubs: [
                .init(
                    name: "team/prod",
                    policies: [AccessPolicy(name: NH.fullName, key: NH.fullKey, rights: [.listen, .manage, .send])])
            ])
        try await withEmulator(configuration) { client, _ async throws in
            let token = Token.resource("https://\(NH.nsHost)/team/prod")
            let id = "user@example.com:a b"
            let path = "/team/prod/installations/user%40example.com%3Aa%20b?\(NH.api)"
            let put = try await client.request(
                .put, path, auth: token, headers: [("Content-Type", "application/json")],
                body: seedInstallation(id: id))
            #expect(put.status == 200, "\(put)")
            let get = try await client.request(.get, path, auth: token)
            #expect((get.json as? [String: Any])?["installationId"] as? String == id, "\(get)")
            let send = try await client.request(
                .post, "/team/prod/messages?\(NH.api)", auth: token,
                headers: [
                    ("ServiceBusNotification-Format", "template"),
                    ("ServiceBusNotification-Tags", "$InstallationId:{\(id.replacingOccurrences(of: " ", with: ""))}"),
                    ("Content-Type", "application/json;charset=utf-8"),
                ],
                body: #"{"message":"x"}"#)
            #expect(send.status == 201 || send.status == 400, "\(send)")
            let location = send.header("Location") ?? ""
            if send.status == 201 { #expect(location.contains("/team/prod/messages/"), "\(location)") }
            let wrongHubToken = Token.resource("https://\(NH.nsHost)/team")
            #expect(
                try await client.request(.get, path, auth: wrongHubToken).status == 200,
                "a token for /team covers /team/prod")
            let sibling = Token.resource("https://\(NH.nsHost)/team/dev")
            #expect(try await client.request(.get, path, auth: sibling).status == 401)
        }
    }

    @Test("template targeting uses installation tags ∪ that template's tags")
    func perTemplateTags() async throws {
        try await withEmulator { client, _ async throws in
            let body = """
                {"installationId":"pt-1","platform":"apns","pushChannel":"\(apnsToken(1))","tags":["a"],"templates":{\
                "t1":{"body":"{\\"aps\\":{\\"alert\\":\\"one $(m)\\"}}","tags":["x"]},\
                "t2":{"body":"{\\"aps\\":{\\"alert\\":\\"$(m)\\"}}"}}}
                """
            #expect(try await client.putInstallation("pt-1", body).status == 200)
            #expect(try await client.sendTemplate(#"{"m":"v"}"#, tags: "a && x").status == 201)
            #expect(try await client.deliveries().compactMap { $0["template"] as? String } == ["t1"])
            _ = try await client.request(.delete, "/_emulator/deliveries")
            #expect(try await client.sendTemplate(#"{"m":"v"}"#, tags: "a").status == 201)
            #expect(Set(try await client.deliveries().compactMap { $0["template"] as? String }) == ["t1", "t2"])
            _ = try await client.request(.delete, "/_emulator/deliveries")
            #expect(try await client.sendTemplate(#"{"m":"v"}"#, tags: "x && t2").status == 201)
            #expect(try await client.deliveries().isEmpty)
        }
    }

    @Test("native windows send with X-WNS-Type reaches WNS devices with the header")
    func nativeWindows() async throws {
        try await withEmulator { client, _ async throws in
            let body =
                #"{"installationId":"w-2","platform":"wns","pushChannel":"https://db5.notify.windows.com/?token=n","tags":["w"]}"#
            #expect(try await client.putInstallation("w-2", body).status == 200)
            let toast =
                #"<toast><visual><binding template="ToastText01"><text id="1">n</text></binding></visual></toast>"#
            Self.expectCreated(
                try await client.sendNative(
                    "windows", toast, tags: "w", contentType: "application/xml",
                    extraHeaders: [("X-WNS-Type", "wns/toast")]))
            let delivery = try #require(try await client.deliveries().first)
            #expect(delivery["payload"] as? String == toast)
            #expect(delivery["platform"] as? String == "wns")
            let headers = (delivery["headers"] as? [String: String]) ?? [:]
            #expect(headers.first { $0.key.lowercased() == "x-wns-type" }?.value == "wns/toast", "\(headers)")
        }
    }

    // MARK: platform headers

    @Test("apns-* request headers travel with the delivery")
    func apnsHeaders() async throws {
        try await withEmulator { client, _ async throws in
            #expect(
                try await client.putInstallation("h-1", Self.installation("h-1", channel: apnsToken(1), tags: ["h"]))
                    .status == 200)
            Self.expectCreated(
                try await client.sendNative(
                    "apple", #"{"aps":{"content-available":1}}"#, tags: "h",
                    extraHeaders: [("apns-push-type", "background"), ("apns-priority", "5")]))
            let delivery = try #require(try await client.deliveries().first)
            let headers = ((delivery["headers"] as? [String: String]) ?? [:]).reduce(into: [String: String]()) {
                $0[$1.key.lowercased()] = $1.value
            }
            #expect(headers["apns-push-type"] == "background", "\(headers)")
            #expect(headers["apns-priority"] == "5", "\(headers)")
        }
    }

    // MARK: direct send (§5.2)

    @Test("direct send: ?direct and direct=true reach the handle; template direct → 400")
    func directSend() async throws {
        try await withEmulator { client, _ async throws in
            let alert = #"{"aps":{"alert":"direct"}}"#
            for query in ["&direct", "&direct=true"] {
                let response = try await client.sendNative(
                    "apple", alert, tags: nil, query: query,
                    extraHeaders: [("ServiceBusNotification-DeviceHandle", apnsToken(0xD1))])
                Self.expectCreated(response, query: "(&direct(=true)?)?")
                let delivery = try #require(try await client.deliveries().last)
                #expect(delivery["pushChannel"] as? String == apnsToken(0xD1))
                #expect(delivery["payload"] as? String == alert)
                #expect(delivery["installationId"] is NSNull)
                #expect(delivery["registrationId"] is NSNull)
                #expect(delivery["template"] is NSNull)
                #expect(delivery["notificationId"] as? String == response.locationLastSegment)
            }
            let template = try await client.sendTemplate(
                #"{"message":"x"}"#, tags: nil, query: "&direct",
                extraHeaders: [("ServiceBusNotification-DeviceHandle", apnsToken(0xD1))])
            #expect(template.status == 400, "\(template)")
            let fcm = #"{"message":{"data":{"k":"v"}}}"#
            Self.expectCreated(
                try await client.sendNative(
                    "fcmv1", fcm, tags: nil, query: "&direct",
                    extraHeaders: [("ServiceBusNotification-DeviceHandle", "fcm-direct-1")]),
                query: "(&direct(=true)?)?")
            let fcmDelivery = try #require(try await client.deliveries().last)
            #expect(fcmDelivery["platform"] as? String == "fcmv1")
            #expect(fcmDelivery["pushChannel"] as? String == "fcm-direct-1")
            #expect(fcmDelivery["payload"] as? String == fcm)
            let noHandle = try await client.sendNative("apple", alert, tags: nil, query: "&direct")
            #expect(noHandle.status == 400, "\(noHandle)")
            #expect(try await client.deliveries().count == 3)
        }
    }

    // MARK: test send (§5.5)

    @Test("test send: 201 with a NotificationOutcome, at most 10 devices")
    func testSend() async throws {
        try await withEmulator { client, _ async throws in
            for index in 1...12 {
                #expect(
                    try await client.putInstallation(
                        "t-\(index)",
                        Self.installation(
                            "t-\(index)", channel: apnsToken(index),
                            tags: ["many"])
                    ).status == 200)
            }
            let response = try await client.sendNative("apple", #"{"aps":{"alert":"t"}}"#, tags: "many", query: "&test")
            #expect(response.status == 201, "\(response)")
            #expect(response.body.contains("<NotificationOutcome"), "\(response.body)")
            #expect(response.body.contains("<Success>10</Success>"), "\(response.body)")
            #expect(response.body.contains("<Failure>0</Failure>"), "\(response.body)")
            #expect(response.body.components(separatedBy: "<RegistrationResult>").count - 1 == 10)
            #expect(response.body.contains("<ApplicationPlatform>apple</ApplicationPlatform>"), "\(response.body)")
            #expect(try await client.deliveries().count == 10)

            // JS spells the flag test=true.
            let js = try await client.sendNative(
                "apple", #"{"aps":{"alert":"t"}}"#, tags: "t-1 || t-2", query: "&test=true")
            #expect(js.status == 201)
            #expect(js.body.contains("<NotificationOutcome"), "\(js.body)")
        }
    }

    // MARK: limits (§8)

    @Test("a request over 64 KB → 413, nothing delivered")
    func requestTooLarge() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation("big-1", seedInstallation(id: "big-1")).status == 200)
            let big = #"{"message":"\#(String(repeating: "x", count: 70_000))"}"#
            let response = try await client.sendTemplate(big, tags: "12345")
            #expect(response.status == 413, "\(response.status)")
            #expect(try await client.deliveries().isEmpty)
            // Just under the limit is accepted as a request (the rendered APNs payload is then too big).
            let under = #"{"message":"\#(String(repeating: "x", count: 60_000))"}"#
            #expect(try await client.sendTemplate(under, tags: "12345").status == 201)
        }
    }

    @Test("an APNs payload over 4096 bytes fails for that device: no delivery, Failure in a test send")
    func apnsPayloadLimit() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation("big-1", seedInstallation(id: "big-1")).status == 200)
            let fits = String(repeating: "y", count: 4096 - #"{"aps":{"alert":""}}"#.utf8.count)
            #expect(try await client.sendTemplate(#"{"message":"\#(fits)"}"#, tags: "12345").status == 201)
            #expect(try await client.deliveries().count == 1)

            let tooBig = fits + "y"
            let send = try await client.sendTemplate(#"{"message":"\#(tooBig)"}"#, tags: "12345")
            #expect(send.status == 201, "\(send)")
            let outcome = try await client.sendTemplate(#"{"message":"\#(tooBig)"}"#, tags: "12345", query: "&test")
            #expect(outcome.status == 201)
            #expect(outcome.body.contains("<Success>0</Success>"), "\(outcome.body)")
            #expect(outcome.body.contains("<Failure>1</Failure>"), "\(outcome.body)")
            #expect(try await client.deliveries().count == 1)

        }
    }

    @Test("a native APNs body over 4096 bytes is not delivered")
    func nativeApnsPayloadLimit() async throws {
        try await withEmulator { client, _ async throws in
            #expect(
                try await client.putInstallation("n-1", Self.installation("n-1", channel: apnsToken(1), tags: ["n"]))
                    .status == 200)
            let alert = String(repeating: "z", count: 4097 - #"{"aps":{"alert":""}}"#.utf8.count)
            let response = try await client.sendNative(
                "apple", #"{"aps":{"alert":"\#(alert)"}}"#, tags: "n", query: "&test")
            #expect([201, 400, 403, 413].contains(response.status), "\(response)")
            if response.status == 201 {
                #expect(response.body.contains("<Failure>1</Failure>"), "\(response.body)")
            }
            #expect(try await client.deliveries().isEmpty)
        }
    }

    // MARK: telemetry (§5.6)

    @Test("per-message telemetry: GET messages/{id} → NotificationDetails; unknown → 404")
    func telemetry() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation("m-1", seedInstallation(id: "m-1")).status == 200)
            let send = try await client.sendTemplate(#"{"message":"x"}"#, tags: "12345")
            let id = try #require(send.locationLastSegment)
            let details = try await client.request(.get, "/myhub/messages/\(id)?\(NH.api)", auth: Token.full())
            #expect(details.status == 200, "\(details)")
            #expect(details.body.contains("<NotificationDetails"))
            #expect(details.body.contains("<NotificationId>\(id)</NotificationId>"))
            #expect(details.body.matches("<State>(Enqueued|Processing|Completed)</State>"), "\(details.body)")
            let unknown = try await client.request(.get, "/myhub/messages/nope?\(NH.api)", auth: Token.full())
            #expect(unknown.status == 404, "\(unknown)")
        }
    }

    @Test("telemetry is kept for the newest `deliveryLimit` notifications; older ids are 404")
    func telemetryLimit() async throws {
        try await withEmulator(deliveryLimit: 2) { client, _ async throws in
            #expect(try await client.putInstallation("m-1", seedInstallation(id: "m-1")).status == 200)
            var ids: [String] = []
            for index in 1...3 {
                ids.append(
                    try #require(
                        try await client.sendTemplate(#"{"message":"m\#(index)"}"#, tags: "12345").locationLastSegment))
            }
            var statuses: [Int] = []
            for id in ids {
                statuses.append(
                    Int(try await client.request(.get, "/myhub/messages/\(id)?\(NH.api)", auth: Token.full()).status))
            }
            #expect(statuses == [404, 200, 200])
        }
    }
}
