import Foundation
import HTTPTypes
import HubEmulator
import TestSupport
import Testing

/// §1.2–§1.6: SAS verification over raw HTTP, every client style, and every way a token goes wrong.
@Suite("Auth: SAS tokens (§1.2–§1.6)")
struct AuthTests {
    /// Asserts a §1.6/§9 error: status, `application/xml; charset=utf-8`, `<Error><Code>…</Code><Detail>…</Detail></Error>`.
    static func expectError(
        _ response: RawResponse, _ status: Int, detailPrefix: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, "\(response)", sourceLocation: sourceLocation)
        guard response.status == status, !response.body.isEmpty else { return }
        #expect(
            normalizedContentType(response.header("Content-Type")) == "application/xml;charset=utf-8",
            "\(response)", sourceLocation: sourceLocation)
        #expect(
            response.body.matches(
                #"^<Error><Code>\#(status)</Code><Detail>.*TrackingId:.*,TimeStamp:.*</Detail></Error>$"#),
            "\(response.body)", sourceLocation: sourceLocation)
        if let detailPrefix {
            #expect(
                response.errorDetail?.hasPrefix(detailPrefix) == true, "\(response.body)",
                sourceLocation: sourceLocation)
        }
    }

    /// 401 or 403 (§1.6 shows both for a missing claim), never success.
    static func expectForbidden(_ response: RawResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 401 || response.status == 403, "\(response)", sourceLocation: sourceLocation)
    }

    static let installation = seedInstallation(id: "auth-1")
    static let sendHeaders = [
        ("ServiceBusNotification-Format", "template"), ("ServiceBusNotification-Tags", "nobody"),
        ("Content-Type", "application/json;charset=utf-8"),
    ]

    // MARK: fixture vectors

    @Test("the test-local signer reproduces every fixture signature")
    func signerMatchesFixtures() throws {
        let fixture = try SASFixture.load()
        #expect(fixture.vectors.count == 4)
        for vector in fixture.vectors {
            #expect("\(vector.encodedResource)\n\(vector.expiry)" == vector.stringToSign, "\(vector.style)")
            #expect(
                Token.mac(vector.encodedResource, vector.expiry, key: vector.key) == vector.signatureBase64,
                "\(vector.style)")
        }
        // The escaping flavours of §1.2 produce the fixtures' encoded resources.
        let byStyle = Dictionary(uniqueKeysWithValues: fixture.vectors.map { ($0.style, $0) })
        #expect(
            Escape.quoteLower.encode(byStyle["seed-tutorial"]!.resource) == byStyle["seed-tutorial"]!.encodedResource)
        #expect(Escape.dotnet.encode(byStyle["dotnet-sdk"]!.resource) == byStyle["dotnet-sdk"]!.encodedResource)
        #expect(
            Escape.quotePlus.encode(byStyle["python-pyamqp"]!.resource) == byStyle["python-pyamqp"]!.encodedResource)
        #expect(Escape.uriComponent.encode(byStyle["js-sdk"]!.resource) == byStyle["js-sdk"]!.encodedResource)
        #expect(
            Token.mac(fixture.negative.encodedResource, 1_700_000_000, key: NH.fullKey)
                != fixture.negative.wrongSignatureBase64)
    }

    /// The fixtures' exact token strings (se = 1700000000), accepted thanks to a clock skew reaching back to 2023.
    @Test("fixture token strings replayed verbatim", arguments: SASFixture.vectors)
    func fixtureTokensReplayed(vector: SASVector) async throws {
        let skew = Int64(Date().timeIntervalSince1970) - vector.expiry + 86_400
        try await withEmulator(NH.configuration(clockSkew: skew)) { client, _ async throws in
            // Every style is valid for a send (.NET's token names exactly /myhub/messages/).
            let send = try await client.request(
                .post, "/myhub/messages?\(NH.api)", auth: vector.token,
                headers: Self.sendHeaders, body: #"{"message":"x"}"#)
            #expect(send.status == 201, "\(vector.style): \(send)")
            if vector.style == "dotnet-sdk" {
                // …and only for that operation path.
                let put = try await client.putInstallation("auth-1", Self.installation, auth: vector.token)
                Self.expectError(put, 401, detailPrefix: "InvalidAudience")
            } else {
                let put = try await client.putInstallation("auth-1", Self.installation, auth: vector.token)
                #expect(put.status == 200, "\(vector.style): \(put)")
            }
        }
    }

    @Test("fixture tokens without clock skew are expired")
    func fixtureTokensExpireWithoutSkew() async throws {
        try await withEmulator { client, _ async throws in
            for vector in SASFixture.vectors {
                let send = try await client.request(
                    .post, "/myhub/messages?\(NH.api)", auth: vector.token,
                    headers: Self.sendHeaders, body: #"{"message":"x"}"#)
                Self.expectError(send, 401, detailPrefix: "ExpiredToken")
            }
        }
    }

    @Test("the base64-decoded-key signature (negative vector) is rejected")
    func negativeVectorRejected() async throws {
        let fixture = try SASFixture.load()
        let skew = Int64(Date().timeIntervalSince1970) - 1_700_000_000 + 86_400
        try await withEmulator(NH.configuration(clockSkew: skew)) { client, _ async throws in
            let token =
                "SharedAccessSignature sr=\(fixture.negative.encodedResource)&sig="
                + Escape.quotePlus.encode(fixture.negative.wrongSignatureBase64) + "&se=1700000000&skn=\(NH.fullName)"
            let response = try await client.putInstallation("auth-1", Self.installation, auth: token)
            Self.expectError(response, 401, detailPrefix: "InvalidSignature")
        }
    }

    // MARK: every client style with a fresh expiry

    @Test("every client style of §1.2, freshly signed, is accepted for installations and sends")
    func everyStyleFresh() async throws {
        try await withEmulator { client, _ async throws in
            let hubStyles: [(String, String)] = [
                ("python-sample", Token.pythonSample()),
                ("pyamqp", Token.pyamqp()),
                ("js", Token.js()),
                ("go", Token.go()),
                ("java", Token.java(pathAndQuery: "/myhub/installations/auth-1?\(NH.api)")),
                ("dotnet", Token.dotnet(path: "/myhub/installations/auth-1")),
                ("sb-scheme", Token.resource("sb://\(NH.nsHost)/myhub")),
                ("upper-case resource", Token.resource("https://CONTOSO-NH.servicebus.windows.net/MyHub/")),
                ("hub with query", Token.resource("https://\(NH.nsHost)/myhub?api-version=2015-01")),
                ("emulator host", Token.resource("http://\(client.authority)/myhub")),
                ("emulator host .NET", Token.dotnet(path: "/myhub/installations/auth-1", host: client.authority)),
            ]
            for (style, token) in hubStyles {
                let put = try await client.putInstallation("auth-1", Self.installation, auth: token)
                #expect(put.status == 200, "\(style): \(put)")
            }
            let sendStyles: [(String, String)] = [
                ("python-sample", Token.pythonSample()),
                ("pyamqp", Token.pyamqp()),
                ("js", Token.js()),
                ("go", Token.go()),
                ("java", Token.java(pathAndQuery: "/myhub/messages?\(NH.api)")),
                ("dotnet", Token.dotnet(path: "/myhub/messages")),
            ]
            for (style, token) in sendStyles {
                let send = try await client.request(
                    .post, "/myhub/messages?\(NH.api)", auth: token,
                    headers: Self.sendHeaders, body: #"{"message":"x"}"#)
                #expect(send.status == 201, "\(style): \(send)")
            }
        }
    }

    @Test("the header prefix is case-insensitive")
    func prefixCaseInsensitive() async throws {
        try await withEmulator { client, _ async throws in
            let token = "sharedaccesssignature" + Token.full().dropFirst("SharedAccessSignature".count)
            let put = try await client.putInstallation("auth-1", Self.installation, auth: token)
            #expect(put.status == 200, "\(put)")
        }
    }

    @Test("sig is form-decoded: an unescaped '+' becomes a space and fails, %2B works")
    func plusInSignature() async throws {
        var expiry = Token.freshExpiry()
        let sr = Escape.quotePlus.encode("https://\(NH.nsHost)/myhub")
        while !Token.mac(sr, expiry, key: NH.fullKey).contains("+") { expiry += 1 }
        let sig = Token.mac(sr, expiry, key: NH.fullKey)
        let se = expiry
        try await withEmulator { client, _ async throws in
            let raw =
                "SharedAccessSignature sr=\(sr)&sig=\(sig.replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: "=", with: "%3D"))&se=\(se)&skn=\(NH.fullName)"
            Self.expectError(try await client.putInstallation("auth-1", Self.installation, auth: raw), 401)
            let escaped =
                "SharedAccessSignature sr=\(sr)&sig=\(Escape.quotePlus.encode(sig))&se=\(se)&skn=\(NH.fullName)"
            #expect(try await client.putInstallation("auth-1", Self.installation, auth: escaped).status == 200)
        }
    }

    // MARK: tampered

    @Test("tampered tokens: signature, expiry, resource, key")
    func tamperedTokens() async throws {
        try await withEmulator { client, _ async throws in
            let expiry = Token.freshExpiry()
            let good = Token.pyamqp(expiry: expiry)
            #expect(try await client.putInstallation("auth-1", Self.installation, auth: good).status == 200)

            // One plain base64 character of the signature changed (never one inside a %XX escape,
            // which would make the signature undecodable rather than wrong).
            let sigStart = try #require(good.range(of: "&sig="))
            var chars = Array(good)
            var index = good.distance(from: good.startIndex, to: sigStart.upperBound) + 3
            while chars[index] == "%" || chars[index - 1] == "%" || chars[index - 2] == "%"
                || !(chars[index].isLetter || chars[index].isNumber)
            {
                index += 1
            }
            chars[index] = chars[index] == "A" ? "B" : "A"
            Self.expectError(
                try await client.putInstallation("auth-1", Self.installation, auth: String(chars)), 401,
                detailPrefix: "InvalidSignature")

            // Expiry extended without re-signing.
            let laterExpiry = good.replacingOccurrences(of: "se=\(expiry)", with: "se=\(expiry + 3600)")
            Self.expectError(
                try await client.putInstallation("auth-1", Self.installation, auth: laterExpiry), 401,
                detailPrefix: "InvalidSignature")

            // Resource widened to the namespace root without re-signing.
            let widened = good.replacingOccurrences(of: "%2Fmyhub&", with: "%2F&")
            #expect(widened != good)
            Self.expectError(
                try await client.putInstallation("auth-1", Self.installation, auth: widened), 401,
                detailPrefix: "InvalidSignature")

            // Escape case of sr changed (same URI, different bytes): the MAC covers the raw sr.
            let recased = good.replacingOccurrences(of: "%3A%2F%2F", with: "%3a%2f%2f")
            Self.expectError(
                try await client.putInstallation("auth-1", Self.installation, auth: recased), 401,
                detailPrefix: "InvalidSignature")

            // Signed with another key under the full policy's name.
            let wrongKey = Token.pyamqp(key: NH.listenKey)
            Self.expectError(
                try await client.putInstallation("auth-1", Self.installation, auth: wrongKey), 401,
                detailPrefix: "InvalidSignature")
        }
    }

    @Test("malformed or missing authorization → 401")
    func malformedAuthorization() async throws {
        try await withEmulator { client, _ async throws in
            let missing = try await client.request(
                .put, "/myhub/installations/auth-1?\(NH.api)",
                headers: [("Content-Type", "application/json")], body: Self.installation)
            Self.expectError(missing, 401)
            let bearer = "Bearer" + Token.full().dropFirst("SharedAccessSignature".count)
            Self.expectError(try await client.putInstallation("auth-1", Self.installation, auth: bearer), 401)
            let unknownPolicy = Token.pyamqp(keyName: "NoSuchPolicy", key: NH.fullKey)
            Self.expectError(try await client.putInstallation("auth-1", Self.installation, auth: unknownPolicy), 401)
            let otherHubPolicy = Token.pyamqp(keyName: NH.otherName, key: NH.otherKey)
            Self.expectError(try await client.putInstallation("auth-1", Self.installation, auth: otherHubPolicy), 401)
            let nonNumeric = Token.full().replacingOccurrences(
                of: #"se=\d+"#, with: "se=soon", options: .regularExpression)
            Self.expectError(try await client.putInstallation("auth-1", Self.installation, auth: nonNumeric), 401)
            let fractional = Token.full().replacingOccurrences(
                of: #"se=(\d+)"#, with: "se=$1.5", options: .regularExpression)
            Self.expectError(try await client.putInstallation("auth-1", Self.installation, auth: fractional), 401)
            let noSig =
                "SharedAccessSignature sr=https%3A%2F%2F\(NH.nsHost)%2Fmyhub&se=\(Token.freshExpiry())&skn=\(NH.fullName)"
            Self.expectError(try await client.putInstallation("auth-1", Self.installation, auth: noSig), 401)
        }
    }

    // MARK: expired

    @Test("expired token → 401 ExpiredToken")
    func expiredToken() async throws {
        try await withEmulator { client, _ async throws in
            let expired = Token.pyamqp(expiry: Int64(Date().timeIntervalSince1970) - 120)
            Self.expectError(
                try await client.putInstallation("auth-1", Self.installation, auth: expired), 401,
                detailPrefix: "ExpiredToken")
            let dotnetExpired = Token.dotnet(path: "/myhub/messages", expiry: Int64(Date().timeIntervalSince1970) - 5)
            let send = try await client.request(
                .post, "/myhub/messages?\(NH.api)", auth: dotnetExpired,
                headers: Self.sendHeaders, body: #"{"message":"x"}"#)
            Self.expectError(send, 401, detailPrefix: "ExpiredToken")
        }
    }

    @Test("configured clock skew is honoured, and only that much")
    func clockSkew() async throws {
        try await withEmulator(NH.configuration(clockSkew: 300)) { client, _ async throws in
            let now = Int64(Date().timeIntervalSince1970)
            #expect(
                try await client.putInstallation(
                    "auth-1", Self.installation,
                    auth: Token.pyamqp(expiry: now - 60)
                ).status == 200)
            Self.expectError(
                try await client.putInstallation(
                    "auth-1", Self.installation,
                    auth: Token.pyamqp(expiry: now - 900)), 401,
                detailPrefix: "ExpiredToken")
        }
    }

    // MARK: wrong audience

    @Test("wrong audience → 401 InvalidAudience")
    func wrongAudience() async throws {
        try await withEmulator { client, _ async throws in
            let cases: [(String, String)] = [
                ("other hub", Token.resource("https://\(NH.nsHost)/otherhub")),
                ("other namespace", Token.resource("https://fabrikam.servicebus.windows.net/myhub")),
                ("prefix not on a segment boundary", Token.resource("https://\(NH.nsHost)/my")),
                ("longer hub name", Token.resource("https://\(NH.nsHost)/myhub2")),
                (".NET token for messages", Token.dotnet(path: "/myhub/messages")),
                (".NET token for another installation", Token.dotnet(path: "/myhub/installations/someone-else")),
                ("JS root of another namespace", Token.js(host: "fabrikam.servicebus.windows.net")),
                (
                    ".NET token for an installation whose id is a prefix",
                    Token.dotnet(path: "/myhub/installations/auth")
                ),
            ]
            for (name, token) in cases {
                let response = try await client.putInstallation("auth-1", Self.installation, auth: token)
                #expect(response.status == 401, "\(name): \(response)")
                Self.expectError(response, 401, detailPrefix: "InvalidAudience")
            }
            // A namespace-root token reaches every hub.
            let other = try await client.putInstallation(
                "auth-1", Self.installation, hub: NH.otherHub,
                auth: Token.js(keyName: NH.otherName, key: NH.otherKey))
            #expect(other.status == 200, "\(other)")
        }
    }

    // MARK: wrong rights

    @Test("Listen-only key: installations and registrations yes, sends and Manage operations no")
    func listenRights() async throws {
        try await withEmulator { client, _ async throws in
            let listen = Token.listen()
            #expect(try await client.putInstallation("auth-1", Self.installation, auth: listen).status == 200)
            let get = try await client.request(.get, "/myhub/installations/auth-1?\(NH.api)", auth: listen)
            #expect(get.status == 200)
            let ids = try await client.request(.post, "/myhub/registrationids?\(NH.api)", auth: listen, body: "")
            #expect(ids.status == 201, "\(ids)")
            let send = try await client.request(
                .post, "/myhub/messages?\(NH.api)", auth: listen,
                headers: Self.sendHeaders, body: #"{"message":"x"}"#)
            Self.expectForbidden(send)
            let direct = try await client.request(
                .post, "/myhub/messages?\(NH.api)&direct", auth: listen,
                headers: [
                    ("ServiceBusNotification-Format", "apple"),
                    ("ServiceBusNotification-DeviceHandle", apnsToken(1)),
                    ("Content-Type", "application/json;charset=utf-8"),
                ],
                body: #"{"aps":{"alert":"x"}}"#)
            Self.expectForbidden(direct)
            let byTag = try await client.request(.get, "/myhub/tags/12345/registrations?\(NH.api)", auth: listen)
            Self.expectForbidden(byTag)
            let schedule = try await client.request(
                .post, "/myhub/schedulednotifications?\(NH.api)", auth: listen,
                headers: Self.sendHeaders + [("ServiceBusNotification-ScheduleTime", "2099-01-01T00:00:00")],
                body: #"{"message":"x"}"#)
            Self.expectForbidden(schedule)
            #expect(try await client.deliveries().isEmpty)
        }
    }

    @Test("Send-only key: sends yes, installations no")
    func sendRights() async throws {
        try await withEmulator { client, _ async throws in
            let send = try await client.request(
                .post, "/myhub/messages?\(NH.api)", auth: Token.sendOnly(),
                headers: Self.sendHeaders, body: #"{"message":"x"}"#)
            #expect(send.status == 201, "\(send)")
            Self.expectForbidden(try await client.putInstallation("auth-1", Self.installation, auth: Token.sendOnly()))
            let reg = try await client.request(
                .post, "/myhub/registrationids?\(NH.api)", auth: Token.sendOnly(), body: "")
            Self.expectForbidden(reg)
        }
    }

    @Test("Manage implies Send and Listen; full key reads registrations by tag")
    func manageRights() async throws {
        try await withEmulator { client, _ async throws in
            let byTag = try await client.request(.get, "/myhub/tags/12345/registrations?\(NH.api)", auth: Token.full())
            #expect(byTag.status == 200, "\(byTag)")
        }
    }

    @Test("authentication comes before lookups: an unknown installation with a bad token → 401, not 404")
    func authBeforeLookup() async throws {
        try await withEmulator { client, _ async throws in
            let bad = Token.pyamqp(key: NH.listenKey)
            AuthTests.expectError(
                try await client.request(.get, "/myhub/installations/ghost?\(NH.api)", auth: bad), 401)
            AuthTests.expectError(
                try await client.request(.get, "/myhub/registrations/1-2-3?\(NH.api)", auth: bad), 401)
        }
    }

    @Test("unknown hub → 404 'No service is hosted at the specified address.'")
    func unknownHub() async throws {
        try await withEmulator { client, _ async throws in
            let response = try await client.request(.get, "/nohub/installations/x?\(NH.api)", auth: Token.js())
            #expect(response.status == 404, "\(response)")
            #expect(
                response.errorDetail?.hasPrefix("No service is hosted at the specified address.") == true, "\(response)"
            )
        }
    }

    @Test("errors carry a TrackingId header")
    func trackingIdOnErrors() async throws {
        try await withEmulator { client, _ async throws in
            let response = try await client.request(
                .get, "/myhub/installations/x?\(NH.api)",
                headers: [("TrackingId", "3b1c8f1e-0000-4000-8000-000000000001")])
            #expect(response.status == 401)
            #expect(response.header("TrackingId")?.isEmpty == false, "\(response)")
        }
    }

    // MARK: clock offset (rehearsing a skewed clock)

    /// RFC 7231 IMF-fixdate, parsed here rather than with the client's own parser.
    static func httpDate(_ text: String?) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return text.flatMap(formatter.date(from:))
    }

    // Tolerances are minutes, not seconds: the whole suite runs in parallel on two cores, and only the
    // 2 h offset is under test.
    @Test("a clock 2 h ahead rejects a 1 h token as expired, accepts a 3 h one, and dates answers 2 h ahead")
    func clockAhead() async throws {
        try await withEmulator(NH.configuration(clockOffset: 7200)) { client, _ async throws in
            let now = Int64(Date().timeIntervalSince1970)
            let short = try await client.request(
                .post, "/myhub/messages?\(NH.api)", auth: Token.pyamqp(expiry: now + 3600),
                headers: Self.sendHeaders, body: #"{"message":"x"}"#)
            Self.expectError(short, 401, detailPrefix: "ExpiredToken")
            let served = try #require(Self.httpDate(short.header("Date")), "\(short)")
            #expect(abs(served.timeIntervalSince1970 - Double(now + 7200)) < 120, "Date: \(short.header("Date") ?? "")")
            let long = try await client.request(
                .post, "/myhub/messages?\(NH.api)", auth: Token.pyamqp(expiry: now + 3 * 3600),
                headers: Self.sendHeaders, body: #"{"message":"x"}"#)
            #expect(long.status == 201, "\(long)")
            let dated = try #require(Self.httpDate(long.header("Date")), "\(long)")
            #expect(abs(dated.timeIntervalSince1970 - Double(now + 7200)) < 120)
        }
    }

    @Test("a clock 2 h behind accepts a token that expired an hour ago")
    func clockBehind() async throws {
        try await withEmulator(NH.configuration(clockOffset: -7200)) { client, _ async throws in
            let now = Int64(Date().timeIntervalSince1970)
            let response = try await client.request(
                .post, "/myhub/messages?\(NH.api)", auth: Token.pyamqp(expiry: now - 3600),
                headers: Self.sendHeaders, body: #"{"message":"x"}"#)
            #expect(response.status == 201, "\(response)")
        }
    }

    @Test("without an offset, answers are dated by this machine's clock")
    func clockDefault() async throws {
        try await withEmulator { client, _ async throws in
            let response = try await client.request(.get, "/_emulator/health")
            let served = try #require(Self.httpDate(response.header("Date")), "\(response)")
            #expect(abs(served.timeIntervalSinceNow) < 120)
        }
    }
}
