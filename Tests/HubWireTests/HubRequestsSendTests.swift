import HubWire
import Testing

@Suite("HubRequests: sends")
struct HubRequestsSendTests {
    static let templateBody = Array(#"{"message":"Hi","badge":"3"}"#.utf8)
    static let apsBody = Array(#"{"aps":{"alert":"hi"}}"#.utf8)

    @Test("template send to a tag expression")
    func templateWithTags() {
        let notification = NotificationRequest(
            format: "template", body: Self.templateBody,
            target: .tags("follows_RedSox && !lang_fr"))
        #expect(
            HubRequests.send(notification, at: Hub.endpoint)
                == HubRequest(
                    method: .post, url: Hub.base + "messages?api-version=2020-06",
                    headers: [
                        HubHeader("Content-Type", "application/json;charset=utf-8"),
                        HubHeader("ServiceBusNotification-Format", "template"),
                        HubHeader("ServiceBusNotification-Tags", "follows_RedSox && !lang_fr"),
                    ],
                    body: Self.templateBody, isIdempotent: false, summary: "send to 'follows_RedSox && !lang_fr'",
                    right: .send))
    }

    @Test("broadcast sends no Tags header at all")
    func broadcast() {
        let request = HubRequests.send(
            NotificationRequest(
                format: "template", body: Self.templateBody,
                target: .broadcast), at: Hub.endpoint)
        #expect(request.url == Hub.base + "messages?api-version=2020-06")
        #expect(
            request.headers == [
                HubHeader("Content-Type", "application/json;charset=utf-8"),
                HubHeader("ServiceBusNotification-Format", "template"),
            ])
        #expect(request.summary == "broadcast send")
        #expect(!request.isIdempotent)
    }

    @Test("an empty or blank tag expression never becomes an empty Tags header", arguments: ["", "  ", "\r\n"])
    func emptyTags(_ expression: String) {
        let notification = NotificationRequest(format: "template", body: Self.templateBody, target: .tags(expression))
        let request = HubRequests.send(notification, at: Hub.endpoint)
        #expect(request.header("ServiceBusNotification-Tags") == nil)
        #expect(request.summary == "broadcast send")
        #expect(notification.conflict == "the tag expression is empty; use a broadcast target to reach every device")
    }

    @Test("native apple send with platform headers after the NH headers, in order")
    func nativeApple() {
        let notification = NotificationRequest(
            format: "apple", body: Self.apsBody, target: .tags("a || b"),
            headers: [HubHeader("apns-push-type", "alert"), HubHeader("apns-priority", "10")])
        #expect(
            HubRequests.send(notification, at: Hub.endpoint).headers == [
                HubHeader("Content-Type", "application/json;charset=utf-8"),
                HubHeader("ServiceBusNotification-Format", "apple"),
                HubHeader("ServiceBusNotification-Tags", "a || b"),
                HubHeader("apns-push-type", "alert"),
                HubHeader("apns-priority", "10"),
            ])
    }

    @Test("windows: raw is octet-stream, toast is XML")
    func windowsContentTypes() {
        let raw = NotificationRequest(
            format: "windows", body: [0x00, 0xFF, 0x10], target: .broadcast,
            headers: [HubHeader("X-WNS-Type", "wns/raw")])
        let rawRequest = HubRequests.send(raw, at: Hub.endpoint)
        #expect(
            rawRequest.headers == [
                HubHeader("Content-Type", "application/octet-stream"),
                HubHeader("ServiceBusNotification-Format", "windows"),
                HubHeader("X-WNS-Type", "wns/raw"),
            ])
        #expect(rawRequest.body == [0x00, 0xFF, 0x10])
        let toast = NotificationRequest(
            format: "windows", body: Array("<toast/>".utf8), target: .broadcast,
            headers: [HubHeader("X-WNS-Type", "wns/toast")])
        #expect(HubRequests.send(toast, at: Hub.endpoint).header("Content-Type") == "application/xml")
    }

    @Test(
        "default Content-Type per format (§5.1)",
        arguments: [
            ("template", [], "application/json;charset=utf-8"),
            ("apple", [], "application/json;charset=utf-8"),
            ("gcm", [], "application/json;charset=utf-8"),
            ("fcmv1", [], "application/json;charset=utf-8"),
            ("fcmV1", [], "application/json;charset=utf-8"),
            ("browser", [], "application/json;charset=utf-8"),
            ("xiaomi", [], "application/json;charset=utf-8"),
            ("windows", [], "application/xml"),
            ("windows", [HubHeader("x-wns-type", "WNS/Raw")], "application/octet-stream"),
            ("windows", [HubHeader("X-WNS-Type", "wns/badge")], "application/xml"),
            ("windowsphone", [], "application/xml;charset=utf-8"),
            ("adm", [], "application/json"),
            ("baidu", [], "application/x-www-form-urlencoded"),
            ("nokiax", [], "application/json;charset=utf-8"),
        ] as [(String, [HubHeader], String)])
    func defaultContentType(_ format: String, _ headers: [HubHeader], _ expected: String) {
        #expect(NotificationRequest.defaultContentType(format: format, headers: headers) == expected)
        let notification = NotificationRequest(format: format, body: [], target: .broadcast, headers: headers)
        #expect(notification.effectiveContentType == expected)
    }

    @Test("an explicit content type wins, then a Content-Type among the headers (which is not sent twice)")
    func explicitContentType() {
        let explicit = NotificationRequest(
            format: "baidu", body: [], target: .broadcast,
            headers: [HubHeader("content-type", "text/plain")],
            contentType: "application/json;charset=utf-8")
        #expect(
            HubRequests.send(explicit, at: Hub.endpoint).headers
                == [
                    HubHeader("Content-Type", "application/json;charset=utf-8"),
                    HubHeader("ServiceBusNotification-Format", "baidu"),
                ])
        let fromHeader = NotificationRequest(
            format: "baidu", body: [], target: .broadcast,
            headers: [HubHeader("content-type", "application/json")])
        #expect(
            HubRequests.send(fromHeader, at: Hub.endpoint).headers
                == [HubHeader("Content-Type", "application/json"), HubHeader("ServiceBusNotification-Format", "baidu")])
    }

    @Test("direct send: ?direct and the DeviceHandle header; test and schedule do not apply")
    func direct() {
        let handle = "62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA"
        let notification = NotificationRequest(
            format: "apple", body: Self.apsBody, target: .direct(handle),
            headers: [HubHeader("apns-push-type", "background")])
        let expected = HubRequest(
            method: .post, url: Hub.base + "messages?api-version=2020-06&direct",
            headers: [
                HubHeader("Content-Type", "application/json;charset=utf-8"),
                HubHeader("ServiceBusNotification-Format", "apple"),
                HubHeader("ServiceBusNotification-DeviceHandle", handle),
                HubHeader("apns-push-type", "background"),
            ],
            body: Self.apsBody, isIdempotent: false, summary: "direct send to '\(handle)'", right: .send)
        #expect(HubRequests.send(notification, at: Hub.endpoint) == expected)
        #expect(notification.conflict == nil)

        var scheduled = notification
        scheduled.scheduleTime = 1_700_000_000
        scheduled.test = true
        #expect(HubRequests.send(scheduled, at: Hub.endpoint) == expected)
        #expect(scheduled.conflict == "a direct send cannot be scheduled; schedule a tag or broadcast send instead")
        var test = notification
        test.test = true
        #expect(test.conflict == "a direct send cannot be a test send; test sends go to tags or broadcast")
    }

    @Test("browser direct send carries P256DH and Auth as platform headers")
    func browserDirect() {
        let notification = NotificationRequest(
            format: "browser", body: Array(#"{"title":"t"}"#.utf8), target: .direct("https://fcm.googleapis.com/x"),
            headers: [HubHeader("P256DH", "BP-key"), HubHeader("Auth", "auth-secret")])
        #expect(
            HubRequests.send(notification, at: Hub.endpoint).headers == [
                HubHeader("Content-Type", "application/json;charset=utf-8"),
                HubHeader("ServiceBusNotification-Format", "browser"),
                HubHeader("ServiceBusNotification-DeviceHandle", "https://fcm.googleapis.com/x"),
                HubHeader("P256DH", "BP-key"), HubHeader("Auth", "auth-secret"),
            ])
    }

    @Test("a template direct send is flagged")
    func templateDirect() {
        let notification = NotificationRequest(format: "template", body: Self.templateBody, target: .direct("h"))
        #expect(
            notification.conflict
                == "a direct send needs a native format, not template (a template needs a registration to fill it)")
    }

    @Test("test send: &test after the api-version")
    func testSend() {
        let tagged = NotificationRequest(format: "template", body: Self.templateBody, target: .tags("beta"), test: true)
        let request = HubRequests.send(tagged, at: Hub.endpoint)
        #expect(request.url == Hub.base + "messages?api-version=2020-06&test")
        #expect(request.summary == "test send to 'beta'")
        #expect(tagged.conflict == nil)
        let broadcast = NotificationRequest(format: "template", body: Self.templateBody, target: .broadcast, test: true)
        #expect(HubRequests.send(broadcast, at: Hub.endpoint).summary == "test broadcast send")
    }

    @Test("scheduled send: schedulednotifications with the UTC ScheduleTime header")
    func scheduled() {
        let notification = NotificationRequest(
            format: "template", body: Self.templateBody, target: .tags("news"),
            scheduleTime: 1_700_000_000.75)
        #expect(
            HubRequests.send(notification, at: Hub.endpoint)
                == HubRequest(
                    method: .post, url: Hub.base + "schedulednotifications?api-version=2020-06",
                    headers: [
                        HubHeader("Content-Type", "application/json;charset=utf-8"),
                        HubHeader("ServiceBusNotification-Format", "template"),
                        HubHeader("ServiceBusNotification-Tags", "news"),
                        HubHeader("ServiceBusNotification-ScheduleTime", "2023-11-14T22:13:20"),
                    ],
                    body: Self.templateBody, isIdempotent: false,
                    summary: "scheduled send to 'news' at 2023-11-14T22:13:20 UTC", right: .send))

        var withTest = notification
        withTest.target = .broadcast
        withTest.test = true
        let request = HubRequests.send(withTest, at: Hub.endpoint)
        #expect(request.url == Hub.base + "schedulednotifications?api-version=2020-06")
        #expect(request.summary == "scheduled broadcast send at 2023-11-14T22:13:20 UTC")
        #expect(withTest.conflict == "a scheduled send cannot be a test send")
    }

    @Test("headers the builder owns are dropped from the platform headers; values stay on one line")
    func ownedHeaders() {
        let notification = NotificationRequest(
            format: " apple ", body: Self.apsBody, target: .tags("a\r\n|| b"),
            headers: [
                HubHeader("Authorization", "SharedAccessSignature sr=x&sig=SECRET"),
                HubHeader("servicebusnotification-tags", "other"),
                HubHeader("ServiceBusNotification-Format", "gcm"),
                HubHeader("ServiceBusNotification-DeviceHandle", "h"),
                HubHeader("ServiceBusNotification-ScheduleTime", "2030-01-01T00:00:00"),
                HubHeader(" ", "nameless"),
                HubHeader("apns-collapse-id", "line1\nline2"),
            ])
        let request = HubRequests.send(notification, at: Hub.endpoint)
        #expect(
            request.headers == [
                HubHeader("Content-Type", "application/json;charset=utf-8"),
                HubHeader("ServiceBusNotification-Format", "apple"),
                HubHeader("ServiceBusNotification-Tags", "a || b"),
                HubHeader("apns-collapse-id", "line1 line2"),
            ])
        #expect(request.url == Hub.base + "messages?api-version=2020-06")
        #expect(!request.dryRunLines(redactedAuthorization: nil).joined().contains("SECRET"))
    }

    @Test("direct batch: messages/$batch?direct with the §5.3 multipart body")
    func directBatch() {
        let request = HubRequests.directBatch(
            format: "apple", payload: Self.apsBody, payloadContentType: nil,
            handles: ["TOKEN1", "TOKEN2"],
            headers: [HubHeader("apns-push-type", "alert")], at: Hub.endpoint)
        #expect(
            request
                == HubRequest(
                    method: .post, url: Hub.base + "messages/$batch?api-version=2020-06&direct",
                    headers: [
                        HubHeader("Content-Type", #"multipart/mixed; boundary="nh-batch-multipart-boundary""#),
                        HubHeader("ServiceBusNotification-Format", "apple"),
                        HubHeader("apns-push-type", "alert"),
                    ],
                    body: Array(DirectBatchRequestTests.example.utf8), isIdempotent: false,
                    summary: "direct batch send to 2 devices", right: .send))
    }

    @Test("direct batch: explicit part content type, raw WNS default, one device")
    func directBatchContentTypes() throws {
        let explicit = HubRequests.directBatch(
            format: "gcm", payload: Array("{}".utf8),
            payloadContentType: "application/json", handles: ["t\"1"],
            headers: [HubHeader("Content-Type", "text/plain")], at: Hub.endpoint)
        #expect(explicit.summary == "direct batch send to 1 device")
        #expect(explicit.headers.count == 2)
        let parsed = try DirectBatchRequest(parsing: explicit.body, contentType: explicit.headers[0].value)
        #expect(
            parsed
                == DirectBatchRequest(
                    notification: Array("{}".utf8), notificationContentType: "application/json",
                    devices: ["t\"1"]))

        let raw = HubRequests.directBatch(
            format: "windows", payload: [1, 2], payloadContentType: nil,
            handles: ["https://wns/1"], headers: [HubHeader("X-WNS-Type", "wns/raw")],
            at: Hub.endpoint)
        let rawParsed = try DirectBatchRequest(parsing: raw.body, contentType: raw.headers[0].value)
        #expect(rawParsed.notificationContentType == "application/octet-stream")
        #expect(rawParsed.notification == [1, 2])
    }

    @Test("header values: line breaks become spaces and the ends are trimmed; plain values are kept as they are")
    func headerValues() {
        let platform = [
            HubHeader("apns-topic", "com.example.app"), HubHeader("X-A", " padded\t"), HubHeader("X-B", "two\r\nlines"),
            HubHeader("X-C", "caf\u{E9}\u{A0}"),
        ]
        let request = HubRequests.send(
            NotificationRequest(format: "apple", body: Self.apsBody, target: .tags("a"), headers: platform),
            at: Hub.endpoint)
        #expect(request.header("apns-topic") == "com.example.app")
        #expect(request.header("X-A") == "padded")
        #expect(request.header("X-B") == "two lines")
        #expect(request.header("X-C") == "caf\u{E9}")
    }
}

@Suite("ContentDigest")
struct ContentDigestTests {
    @Test("SHA-256 in lower-case hex (FIPS 180-2 vectors)")
    func vectors() {
        #expect(ContentDigest.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(ContentDigest.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
