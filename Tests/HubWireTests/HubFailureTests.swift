import HubWire
import Testing

@Suite("HubFailure.classify")
struct HubFailureTests {
    static let now: Double = 1_700_000_000
    static let xml = HubHeader("Content-Type", "application/xml; charset=utf-8")
    static let send = HubRequests.send(
        NotificationRequest(
            format: "apple", body: Array(#"{"aps":{}}"#.utf8),
            target: .direct("62BC")), at: Hub.endpoint)
    static let put = HubRequests.putInstallation(
        Installation(
            installationId: "seed-1", platform: "apns",
            pushChannel: .handle("62BC")), at: Hub.endpoint)

    static func response(_ status: Int, _ body: String, headers: [HubHeader] = [xml]) -> HubResponse {
        HubResponse(status: status, headers: headers, body: Array(body.utf8))
    }

    static func classify(_ response: HubResponse, _ request: HubRequest = send) -> HubFailure {
        HubFailure.classify(response, for: request, now: now)
    }

    @Test("401 InvalidSignature, the §1.6 body verbatim")
    func invalidSignature() {
        let body =
            "<Error><Code>401</Code><Detail>InvalidSignature: The token has an invalid signature..TrackingId:"
            + "6d2c1d2e-5bc1-4c06-9d2e-3b0c8e1d4f55_G19,TimeStamp:7/2/2020 6:33:21 PM</Detail></Error>"
        let failure = Self.classify(Self.response(401, body))
        #expect(
            failure
                == HubFailure(
                    kind: .invalidSignature, status: 401,
                    detail: "InvalidSignature: The token has an invalid signature.",
                    trackingId: "6d2c1d2e-5bc1-4c06-9d2e-3b0c8e1d4f55_G19",
                    operation: "direct send to '62BC'"))
        #expect(failure.message == "the token's signature is invalid: the key does not match the hub's policy")
        #expect(
            failure.hint == "copy the connection string again from the hub's Access Policies; SharedAccessKeyName "
                + "and SharedAccessKey must come from the same policy of this hub or its namespace")
        #expect(!failure.isRetriable)
        #expect(
            failure.description == "direct send to '62BC': the token's signature is invalid: the key does not "
                + "match the hub's policy (hub said: InvalidSignature: The token has an invalid signature.) "
                + "[TrackingId: 6d2c1d2e-5bc1-4c06-9d2e-3b0c8e1d4f55_G19]")
    }

    static let expiredBody =
        "<Error><Code>401</Code><Detail>ExpiredToken: .TrackingId:"
        + "b1f0c8a2-3d4e-4f5a-8b9c-0d1e2f3a4b5c_G4,TimeStamp:11/14/2023 10:18:20 PM</Detail></Error>"

    @Test("401 ExpiredToken with the server's Date 5 minutes ahead: skew 300 s")
    func expiredTokenAhead() {
        let failure = Self.classify(
            Self.response(
                401, Self.expiredBody,
                headers: [
                    Self.xml, HubHeader("Date", "Tue, 14 Nov 2023 22:18:20 GMT"),
                ]))
        #expect(failure.kind == .expiredToken(clockSkewSeconds: 300))
        #expect(failure.detail == "ExpiredToken:")
        #expect(failure.trackingId == "b1f0c8a2-3d4e-4f5a-8b9c-0d1e2f3a4b5c_G4")
        #expect(failure.message == "the token expired; the server's clock is 300 s (about 5m) ahead of this machine's")
        #expect(
            failure.hint
                == "set this machine's clock right (turn on network time sync); tokens are dated by the local clock")
        #expect(!failure.isRetriable)
    }

    @Test(
        "ExpiredToken skew: behind, under a minute, or no Date header",
        arguments: [
            ("Tue, 14 Nov 2023 22:03:20 GMT", -600 as Int?),
            ("Tue, 14 Nov 2023 22:14:19 GMT", nil),
            ("Tue, 14 Nov 2023 22:12:21 GMT", nil),
            ("Tue, 14 Nov 2023 22:14:20 GMT", 60),
            ("not a date", nil),
        ])
    func expiredTokenSkew(_ date: String, _ skew: Int?) {
        let failure = Self.classify(Self.response(401, Self.expiredBody, headers: [HubHeader("date", date)]))
        #expect(failure.kind == .expiredToken(clockSkewSeconds: skew))
    }

    @Test("expired-token messages")
    func expiredMessages() {
        let behind = HubFailure(
            kind: .expiredToken(clockSkewSeconds: -600), status: 401, detail: nil, trackingId: nil,
            operation: "")
        #expect(behind.message == "the token expired; the server's clock is 600 s (about 10m) behind this machine's")
        let plain = HubFailure(
            kind: .expiredToken(clockSkewSeconds: nil), status: 401, detail: "ExpiredToken:",
            trackingId: nil, operation: "")
        #expect(plain.message == "the token expired")
        #expect(plain.hint == "sign a new token; if this keeps happening, check this machine's clock")
        #expect(plain.description == "the token expired (hub said: ExpiredToken:)")
    }

    @Test(
        "skew spans: seconds under two minutes, then also rounded hours and minutes",
        arguments: [
            (61, "61 s"), (119, "119 s"), (120, "120 s (about 2m)"), (7199, "7199 s (about 2h)"),
            (5430, "5430 s (about 1h31m)"),
        ])
    func spans(seconds: Int, text: String) {
        let failure = HubFailure(
            kind: .expiredToken(clockSkewSeconds: seconds), status: 401, detail: nil, trackingId: nil,
            operation: "")
        #expect(failure.message == "the token expired; the server's clock is \(text) ahead of this machine's")
    }

    @Test("401 InvalidAudience (space before TrackingId) is unauthorized, with an audience hint")
    func invalidAudience() {
        let body =
            "<Error><Code>401</Code><Detail>InvalidAudience: The authorization header contains a token with a "
            + "wrong audience. TrackingId:0a8bdd15-e087-446f-bd69-4a08e9a34ce4_G31, SystemTracker:"
            + "contoso-nh.servicebus.windows.net:myhub, Timestamp:6/11/2017 6:34:56 AM</Detail></Error>"
        let failure = Self.classify(Self.response(401, body))
        #expect(failure.kind == .unauthorized)
        #expect(
            failure.detail
                == "InvalidAudience: The authorization header contains a token with a wrong audience.")
        #expect(failure.trackingId == "0a8bdd15-e087-446f-bd69-4a08e9a34ce4_G31")
        #expect(
            failure.message == "the hub refused the token: InvalidAudience: The authorization header contains a "
                + "token with a wrong audience.")
        #expect(
            failure.hint
                == "sign the token for this namespace and hub: its resource must be a prefix of the request URL")
    }

    @Test("401 with an empty body is unauthorized")
    func unauthorizedEmpty() {
        let failure = Self.classify(HubResponse(status: 401, headers: [HubHeader("Content-Length", "0")]))
        #expect(
            failure
                == HubFailure(
                    kind: .unauthorized, status: 401, detail: nil, trackingId: nil,
                    operation: "direct send to '62BC'"))
        #expect(failure.message == "the hub refused the token")
        #expect(
            failure.hint == "check that the connection string is for this namespace and that its policy exists on "
                + "the hub or the namespace")
    }

    @Test("older 401 'Manage claim is required' names the missing right")
    func claimRequired() {
        let body =
            "<Error><Code>401</Code><Detail>Manage claim is required for this operation..TrackingId:"
            + "1745cb27-0fda-4c6c-8f7b-ee2d6868ac96_G6,TimeStamp:6/27/2017 11:32:19 AM</Detail></Error>"
        let request = HubRequests.registrations(handle: nil, tag: "a", top: 100, continuation: nil, at: Hub.endpoint)
        let failure = Self.classify(Self.response(401, body), request)
        #expect(failure.kind == .missingRight(.manage))
        #expect(failure.detail == "Manage claim is required for this operation.")
        #expect(
            failure.message == "the key lacks the Manage right (listing registrations by tag or all, and reading "
                + "notification details, need a Manage key)")
    }

    @Test("403 with an empty body (2022 recording, Listen key sending): the request's right is missing")
    func forbiddenEmpty() {
        let response = HubResponse(
            status: 403,
            headers: [
                HubHeader("Content-Length", "0"), HubHeader("TrackingId", "2b1e3c4d-0000-4000-8000-000000000001"),
                HubHeader("x-ms-correlation-request-id", "9f8e7d6c-0000-4000-8000-000000000002"),
            ])
        let failure = Self.classify(response)
        #expect(
            failure
                == HubFailure(
                    kind: .missingRight(.send), status: 403, detail: nil,
                    trackingId: "2b1e3c4d-0000-4000-8000-000000000001",
                    operation: "direct send to '62BC'"))
        #expect(failure.message == "the key lacks the Send right (a Listen-only key cannot send)")
        #expect(
            failure.hint == "use a connection string whose policy has the Send right, such as "
                + "DefaultFullSharedAccessSignature")
        #expect(!failure.isRetriable)
        #expect(
            failure.description == "direct send to '62BC': the key lacks the Send right (a Listen-only key cannot "
                + "send) [TrackingId: 2b1e3c4d-0000-4000-8000-000000000001]")
        #expect(Self.classify(response, Self.put).kind == .missingRight(.listen))
        #expect(
            Self.classify(response, Self.put).message
                == "the key lacks the Listen right (a Send-only key cannot manage installations or registrations)")
    }

    @Test("403 with Retry-After is throttling")
    func forbiddenThrottled() {
        let failure = Self.classify(HubResponse(status: 403, headers: [HubHeader("Retry-After", "2")]))
        #expect(failure.kind == .throttled(retryAfter: 2))
        #expect(failure.isRetriable)
        #expect(failure.message == "throttled by the hub; retry after 2 s")
        #expect(
            failure.hint == "lower the request rate or concurrency; the hub's tier limits how fast it accepts requests")
        // Present but unreadable still means throttling (the .NET rule looks at presence).
        #expect(
            Self.classify(HubResponse(status: 403, headers: [HubHeader("retry-after", "soon")])).kind
                == .throttled(retryAfter: nil))
    }

    @Test("403 quota exceeded without Retry-After is throttling, not a missing right")
    func quota() {
        let body =
            "<Error><Code>403</Code><Detail>QuotaExceeded: Too many requests.TrackingId:q-1_G2,"
            + "TimeStamp:1/2/2024 3:04:05 AM</Detail></Error>"
        let failure = Self.classify(Self.response(403, body))
        #expect(failure.kind == .throttled(retryAfter: nil))
        #expect(failure.message == "throttled by the hub: QuotaExceeded: Too many requests")
        #expect(failure.trackingId == "q-1_G2")
    }

    @Test("429 with Retry-After seconds or date, and without")
    func tooManyRequests() {
        let seconds = Self.classify(HubResponse(status: 429, headers: [HubHeader("Retry-After", "1.5")]))
        #expect(seconds.kind == .throttled(retryAfter: 1.5))
        #expect(seconds.message == "throttled by the hub; retry after 1.5 s")
        let date = Self.classify(
            HubResponse(
                status: 429,
                headers: [
                    HubHeader(
                        "Retry-After",
                        "Tue, 14 Nov 2023 22:14:20 GMT")
                ]))
        #expect(date.kind == .throttled(retryAfter: 60))
        let none = Self.classify(HubResponse(status: 429))
        #expect(none.kind == .throttled(retryAfter: nil))
        #expect(none.message == "throttled by the hub")
        #expect(none.isRetriable)
    }

    @Test("413 reports the request body's size")
    func tooLarge() {
        var request = Self.send
        request.body = Array(repeating: UInt8(ascii: "a"), count: 70_000)
        let failure = Self.classify(HubResponse(status: 413), request)
        #expect(failure.kind == .payloadTooLarge(bytes: 70_000))
        #expect(failure.message == "payload too large: 70000 bytes; NH accepts at most 65536")
        #expect(
            failure.hint == "shrink the payload, or send fewer handles per direct batch; the whole request body "
                + "must fit in 65536 bytes")
        #expect(!failure.isRetriable)
        let forbidden = Self.response(403, "<Error><Code>403</Code><Detail>The message is too large.</Detail></Error>")
        #expect(Self.classify(forbidden, request).kind == .payloadTooLarge(bytes: 70_000))
    }

    @Test("410 Gone")
    func gone() {
        let request = HubRequests.upsertRegistration(
            RegistrationDescription(
                kind: .apple, isTemplate: false,
                handle: "62BC"),
            id: "r-1", at: Hub.endpoint)
        let failure = Self.classify(
            Self.response(
                410,
                "<Error><Code>410</Code><Detail>The requested resource is no "
                    + "longer available.TrackingId:g-1,TimeStamp:1/2/2024 3:04:05 AM</Detail></Error>"), request)
        #expect(
            failure
                == HubFailure(
                    kind: .gone, status: 410, detail: "The requested resource is no longer available",
                    trackingId: "g-1", operation: "PUT registration 'r-1'"))
        #expect(failure.message == "registration is gone")
        #expect(failure.hint == "get a new registration id (POST registrationIDs) and upsert the registration with it")
    }

    @Test("400 with a Detail")
    func badRequest() {
        let body =
            "<Error><Code>400</Code><Detail>The value 'xyz' is not a valid ServiceBusNotification-Format."
            + "TrackingId:b-1_G3,TimeStamp:1/2/2024 3:04:05 AM</Detail></Error>"
        let failure = Self.classify(Self.response(400, body))
        #expect(failure.kind == .badRequest)
        #expect(failure.message == "bad request: The value 'xyz' is not a valid ServiceBusNotification-Format")
        #expect(
            failure.hint == "check the body, the format and the platform headers; the detail says what the hub "
                + "rejected")
        #expect(
            failure.description == "direct send to '62BC': bad request: The value 'xyz' is not a valid "
                + "ServiceBusNotification-Format [TrackingId: b-1_G3]")
        #expect(Self.classify(HubResponse(status: 400)).message == "bad request")
    }

    @Test("500 with an empty body is a retriable server error")
    func serverError() {
        let failure = Self.classify(HubResponse(status: 500, headers: [HubHeader("Content-Length", "0")]))
        #expect(
            failure
                == HubFailure(
                    kind: .server(status: 500), status: 500, detail: nil, trackingId: nil,
                    operation: "direct send to '62BC'"))
        #expect(failure.isRetriable)
        #expect(failure.message == "the hub had a server error (HTTP 500)")
        #expect(failure.hint == "a transient problem on the service; retry later")
    }

    @Test(
        "which statuses are retriable",
        arguments: [
            (408, true), (500, true), (503, true), (504, true), (502, false), (501, false), (429, true), (400, false),
            (401, false), (403, false), (404, false), (409, false), (410, false), (412, false), (413, false),
        ])
    func retriable(_ status: Int, _ expected: Bool) {
        #expect(Self.classify(HubResponse(status: status)).isRetriable == expected)
    }

    @Test("404: installation, registration (empty detail) and missing hub")
    func notFound() {
        let installation = Self.classify(
            Self.response(
                404,
                "<Error><Code>404</Code><Detail>Installation not found."
                    + "TrackingId:n-1_G1,TimeStamp:1/2/2024 3:04:05 AM</Detail></Error>"), Self.put)
        #expect(
            installation
                == HubFailure(
                    kind: .notFound, status: 404, detail: "Installation not found",
                    trackingId: "n-1_G1", operation: "PUT installation 'seed-1'"))
        #expect(installation.message == "the hub or resource does not exist")
        #expect(
            installation.hint
                == "check the hub name and the id; a just-written installation can take a moment to appear")
        let registration = Self.classify(
            Self.response(
                404,
                "<Error><Code>404</Code><Detail>.TrackingId:n-2,"
                    + "TimeStamp:1/2/2024 3:04:05 AM</Detail></Error>"))
        #expect(registration.detail == nil)
        #expect(registration.trackingId == "n-2")
        let hub = Self.classify(
            Self.response(
                404,
                "<Error><Code>404</Code><Detail>No service is hosted at the "
                    + "specified address..TrackingId:n-3,TimeStamp:1/2/2024 3:04:05 AM</Detail></Error>"))
        #expect(hub.hint == "check the hub name and the namespace in the connection string")
        // A cancel of a scheduled send that is gone speaks of scheduled sends, not installations.
        let cancel = HubFailure(
            kind: .notFound, status: 404, detail: nil, trackingId: nil, operation: "DELETE scheduled notification 'n-9'"
        )
        #expect(cancel.message == "the scheduled notification does not exist on the hub")
        #expect(
            cancel.hint?.hasPrefix("it was sent at its time, cancelled already, or scheduled on another hub") == true,
            "\(cancel.hint ?? "")")
    }

    @Test("412, 409, 408 and a stray 2xx")
    func otherStatuses() {
        let precondition = Self.classify(HubResponse(status: 412))
        #expect(precondition.kind == .preconditionFailed)
        #expect(
            precondition.message
                == "the registration changed since it was read (If-Match did not match its ETag)")
        #expect(
            precondition.hint
                == "read the registration again and retry with its current ETag, or overwrite with If-Match: *")
        let conflict = Self.classify(
            Self.response(
                409,
                "<Error><Code>409</Code><Detail>SubCode=40900. Conflict."
                    + "TrackingId:c-1,TimeStamp:1/2/2024 3:04:05 AM</Detail></Error>"))
        #expect(conflict.kind == .unexpected(status: 409))
        #expect(conflict.message == "unexpected HTTP 409: SubCode=40900. Conflict")
        #expect(conflict.hint == nil)
        let timeout = Self.classify(HubResponse(status: 408))
        #expect(timeout.kind == .server(status: 408))
        #expect(timeout.message == "the hub timed out (HTTP 408)")
        #expect(Self.classify(HubResponse(status: 201)).kind == .unexpected(status: 201))
    }

    @Test("the TrackingId header wins over the one in the detail")
    func trackingIdHeader() {
        let body = "<Error><Code>400</Code><Detail>Bad.TrackingId:from-detail,TimeStamp:x</Detail></Error>"
        let failure = Self.classify(Self.response(400, body, headers: [HubHeader("trackingid", "from-header")]))
        #expect(failure.trackingId == "from-header")
    }

    @Test("a body that is not an NH error leaves detail nil")
    func nonXMLBody() {
        let failure = Self.classify(
            Self.response(
                502, "<html><body>502 Bad Gateway</body></html>",
                headers: [HubHeader("Content-Type", "text/html")]))
        #expect(
            failure
                == HubFailure(
                    kind: .server(status: 502), status: 502, detail: nil, trackingId: nil,
                    operation: "direct send to '62BC'"))
    }

    @Test("a token echoed in a detail (by a proxy, say) is redacted")
    func redactsEchoedToken() {
        let token = SASSigner(keyName: Sample.keyName, key: Sample.key)
            .token(forResource: "https://contoso-nh.servicebus.windows.net/myhub", expiry: Sample.expiry)
        let body =
            "<Error><Code>401</Code><Detail>Rejected header Authorization: \(token.headerValue) and "
            + "query sig=abc%2Bdef&se=1.TrackingId:r-1,TimeStamp:x</Detail></Error>"
        let failure = Self.classify(Self.response(401, body))
        #expect(
            failure.detail
                == "Rejected header Authorization: SharedAccessSignature <redacted> and query sig=<redacted>&se=1")
        let signature = String(token.headerValue.split(separator: "&")[1])
        for text in [failure.message, failure.description, failure.hint ?? ""] {
            #expect(!text.contains(signature))
            #expect(!text.contains(Sample.key))
        }
    }
}
