import Foundation
import HTTPTypes
import HubEmulator
import HubWire
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import TestSupport
import Testing

// Raw-HTTP harness for the emulator end-to-end tests. Requests are written by hand from
// docs/nh-rest-api.md; nothing here goes through Pushline's own NH client. The only HubWire call is
// `SASSigner.signature` (the raw HMAC-SHA256, which this target cannot compute without a crypto
// library); every token's resource, escaping and field order is built below from §1.2.

// MARK: - Namespace, hubs and keys

enum NH {
    static let namespace = "contoso-nh"
    static let nsHost = "contoso-nh.servicebus.windows.net"
    static let hub = "myhub"
    static let otherHub = "otherhub"
    static let api = "api-version=2015-01"

    /// The fixtures' key text (sas-vectors.json) for `DefaultFullSharedAccessSignature`.
    static let fullName = "DefaultFullSharedAccessSignature"
    static let fullKey = "k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY="
    static let listenName = "DefaultListenSharedAccessSignature"
    static let listenKey = "Zx8Pq2Lm5Nb7Vc1Xz3As6Df9Gh0Jk4Lq8Wr2Et5Yu7I="
    static let sendName = "SendOnly"
    static let sendKey = "Sd4Fg6Hj8Kl0Qw2Er4Ty6Ui8Op0As2Df4Gh6Jk8Lz0="
    static let otherName = "OtherHubFull"
    static let otherKey = "Ot1He2Rh3Ub4Ke5Yt6Ex7Tf8Or9Th0Ei1Rp2Ol3Ic4Y="

    static func configuration(
        tier: EmulatorConfiguration.Tier = .standard, faults: [FaultRule] = [], clockSkew: Int64 = 0,
        clockOffset: Int64 = 0,
        deadChannels: [DeadChannelRule] = [], telemetryDelay: Double = 2
    ) -> EmulatorConfiguration {
        EmulatorConfiguration(
            namespace: namespace, tier: tier,
            hubs: [
                .init(
                    name: hub,
                    policies: [
                        AccessPolicy(name: fullName, key: fullKey, rights: [.listen, .manage, .send]),
                        AccessPolicy(name: listenName, key: listenKey, rights: [.listen]),
                        AccessPolicy(name: sendName, key: sendKey, rights: [.send]),
                    ]),
                .init(
                    name: otherHub,
                    policies: [
                        AccessPolicy(name: otherName, key: otherKey, rights: [.listen, .manage, .send])
                    ]),
            ], faults: faults, clockSkew: clockSkew, clockOffset: clockOffset, deadChannels: deadChannels,
            telemetryDelay: telemetryDelay)
    }
}

// MARK: - Clock

/// A settable clock for the emulator's `now:`; starts at the real time so tokens signed against
/// either clock stay valid.
/// Real time plus whatever the test advanced it by: token expiry stays real (tokens are signed with
/// the real clock), while scheduled sends can be made due without sleeping.
final class TestClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)
    /// When set, the clock stands still at this time (plus what the test advanced it by): for tests that read states
    /// which change with time, so a slow machine cannot move them on.
    private let frozenAt: Date?
    init(frozen: Bool = false) { frozenAt = frozen ? Date() : nil }
    var now: Date { (frozenAt ?? Date()).addingTimeInterval(offset.withLock { $0 }) }
    func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    var provider: @Sendable () -> Date { { [self] in self.now } }
}

// MARK: - Percent-encoding flavours of §1.2's client table

enum Escape {
    case dotnet  // HttpUtility.UrlEncode: lower-case hex, unreserved -_.!*(), space → +
    case quoteLower  // Python quote(s, safe='') then .lower()
    case quoteSlash  // Python quote(s) (safe='/'), upper-case hex
    case quotePlus  // Python quote_plus: upper-case hex, space → +
    case uriComponent  // JS encodeURIComponent: upper-case hex, unreserved -_.!~*'()
    case javaURLEncoder  // java.net.URLEncoder: upper-case hex, unreserved .-*_, space → +
    case goQueryEscape  // Go url.QueryEscape: upper-case hex, unreserved -_.~, space → +

    func encode(_ text: String) -> String {
        let alnum = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let extra: Set<UInt8>
        var lower = false
        var plusForSpace = false
        switch self {
        case .dotnet:
            extra = Set("-_.!*()".utf8)
            lower = true
            plusForSpace = true
        case .quoteLower: extra = Set("_.-~".utf8)
        case .quoteSlash: extra = Set("_.-~/".utf8)
        case .quotePlus:
            extra = Set("_.-~".utf8)
            plusForSpace = true
        case .uriComponent: extra = Set("-_.!~*'()".utf8)
        case .javaURLEncoder:
            extra = Set(".-*_".utf8)
            plusForSpace = true
        case .goQueryEscape:
            extra = Set("-_.~".utf8)
            plusForSpace = true
        }
        var out = ""
        for byte in text.utf8 {
            if alnum.contains(byte) || extra.contains(byte) {
                out.append(Character(UnicodeScalar(byte)))
            } else if byte == 0x20, plusForSpace {
                out.append("+")
            } else {
                let hex = String(format: lower ? "%%%02x" : "%%%02X", byte)
                out.append(hex)
            }
        }
        return self == .quoteLower ? out.lowercased() : out
    }
}

// MARK: - SAS tokens built by hand (§1.2)

enum Token {
    /// Raw HMAC-SHA256 base64 (the one call into HubWire).
    static func mac(_ encodedResource: String, _ expiry: Int64, key: String) -> String {
        SASSigner.signature(stringToSign: "\(encodedResource)\n\(expiry)", key: key)
    }

    static func freshExpiry(_ lifetime: Int64 = 3600) -> Int64 {
        Int64(Date().timeIntervalSince1970) + lifetime
    }

    /// .NET SDK: full operation URL, scheme http, no query, trailing '/', lower-cased; UrlEncode.
    static func dotnet(
        path: String, host: String = NH.nsHost, keyName: String = NH.fullName, key: String = NH.fullKey,
        expiry: Int64 = freshExpiry()
    ) -> String {
        var resource = "http://\(host)/\(path.drop { $0 == "/" })"
        if !resource.hasSuffix("/") { resource += "/" }
        let sr = Escape.dotnet.encode(resource.lowercased())
        let sig = Escape.dotnet.encode(mac(sr, expiry, key: key))
        return "SharedAccessSignature sr=\(sr)&sig=\(sig)&se=\(expiry)&skn=\(Escape.dotnet.encode(keyName))"
    }

    /// Microsoft Python REST sample: hub URI, quote(safe='').lower(), order sig/se/skn/sr, '/' unescaped in sig.
    static func pythonSample(
        hub: String = NH.hub, host: String = NH.nsHost, keyName: String = NH.fullName,
        key: String = NH.fullKey, expiry: Int64 = freshExpiry()
    ) -> String {
        let sr = Escape.quoteLower.encode("https://\(host)/\(hub)")
        let sig = Escape.quoteSlash.encode(mac(sr, expiry, key: key))
        return "SharedAccessSignature sig=\(sig)&se=\(expiry)&skn=\(keyName)&sr=\(sr)"
    }

    /// azure-servicebus / azure-eventhub pyamqp: caller's URI unchanged, quote_plus (upper-case hex).
    static func pyamqp(
        resource: String = "https://\(NH.nsHost)/\(NH.hub)", keyName: String = NH.fullName,
        key: String = NH.fullKey, expiry: Int64 = freshExpiry()
    ) -> String {
        let sr = Escape.quotePlus.encode(resource)
        let sig = Escape.quotePlus.encode(mac(sr, expiry, key: key))
        return "SharedAccessSignature sr=\(sr)&sig=\(sig)&se=\(expiry)&skn=\(Escape.quotePlus.encode(keyName))"
    }

    /// JS SDK: namespace root with trailing '/', encodeURIComponent.
    static func js(
        host: String = NH.nsHost, keyName: String = NH.fullName, key: String = NH.fullKey,
        expiry: Int64 = freshExpiry()
    ) -> String {
        let sr = Escape.uriComponent.encode("https://\(host)/")
        let sig = Escape.uriComponent.encode(mac(sr, expiry, key: key))
        return "SharedAccessSignature sr=\(sr)&sig=\(sig)&se=\(expiry)&skn=\(Escape.uriComponent.encode(keyName))"
    }

    /// Java SDK: full request URL including `?api-version=…`, URLEncoder, whole sr lower-cased; sig upper-case.
    static func java(
        pathAndQuery: String, keyName: String = NH.fullName, key: String = NH.fullKey,
        expiry: Int64 = freshExpiry()
    ) -> String {
        let sr = Escape.javaURLEncoder.encode("https://\(NH.nsHost)/\(pathAndQuery.drop { $0 == "/" })".lowercased())
            .lowercased()
        let sig = Escape.javaURLEncoder.encode(mac(sr, expiry, key: key))
        return "SharedAccessSignature sr=\(sr)&sig=\(sig)&se=\(expiry)&skn=\(keyName)"
    }

    /// Go client: `https://ns.servicebus.windows.net` (no slash) lower-cased, QueryEscape, fields alphabetical.
    static func go(keyName: String = NH.fullName, key: String = NH.fullKey, expiry: Int64 = freshExpiry()) -> String {
        let sr = Escape.goQueryEscape.encode("https://\(NH.nsHost)".lowercased())
        let sig = Escape.goQueryEscape.encode(mac(sr, expiry, key: key))
        return "SharedAccessSignature se=\(expiry)&sig=\(sig)&skn=\(keyName)&sr=\(sr)"
    }

    /// A generic upper-case token for an arbitrary resource (audience tests).
    static func resource(
        _ resource: String, keyName: String = NH.fullName, key: String = NH.fullKey,
        expiry: Int64 = freshExpiry()
    ) -> String {
        pyamqp(resource: resource, keyName: keyName, key: key, expiry: expiry)
    }

    static func full() -> String { pyamqp() }
    static func listen() -> String { pyamqp(keyName: NH.listenName, key: NH.listenKey) }
    static func sendOnly() -> String { pyamqp(keyName: NH.sendName, key: NH.sendKey) }
}

// MARK: - Raw responses and client

struct RawResponse: Sendable, CustomStringConvertible {
    let status: Int
    let headers: HTTPFields
    let body: String

    func header(_ name: String) -> String? { headers[HTTPField.Name(name)!] }

    /// `Location` path segments (after the authority), the query stripped.
    var locationPath: String? {
        guard let location = header("Location"), let url = URL(string: location) else { return nil }
        return url.path
    }

    var locationLastSegment: String? {
        locationPath.map { String($0.split(separator: "/").last ?? "") }
    }

    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed]) }

    /// `<Detail>` text of an `<Error>` body.
    var errorDetail: String? {
        guard let start = body.range(of: "<Detail>"), let end = body.range(of: "</Detail>") else { return nil }
        // The XML's text, unescaped.
        return String(body[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    var description: String { "\(status) \(headers) \(body.prefix(600))" }
}

struct RawClient: Sendable {
    let port: Int
    var authority: String { "127.0.0.1:\(port)" }

    /// One request on a fresh connection (so an injected connection drop never poisons later requests).
    @discardableResult
    func request(
        _ method: HTTPRequest.Method, _ uri: String, auth: String? = nil,
        headers: [(String, String)] = [], body: String? = nil
    ) async throws -> RawResponse {
        try await requestBytes(method, uri, auth: auth, headers: headers, body: body.map { Array($0.utf8) })
    }

    @discardableResult
    func requestBytes(
        _ method: HTTPRequest.Method, _ uri: String, auth: String? = nil,
        headers: [(String, String)] = [], body: [UInt8]? = nil
    ) async throws -> RawResponse {
        var fields = HTTPFields()
        if let auth { fields[.authorization] = auth }
        for (name, value) in headers { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        let request = TestClient.Request(
            uri, method: method, authority: authority, headers: fields,
            body: body.map { ByteBuffer(bytes: $0) })
        let response = try await TestClient.withClient(
            host: "localhost", port: port,
            configuration: .init(timeout: .seconds(60))
        ) { client in
            try await client.execute(request)
        }
        let text = response.body.map { String(buffer: $0) } ?? ""
        return RawResponse(status: Int(response.status.code), headers: response.headers, body: text)
    }

    // Convenience wrappers with the full-rights token.

    func putInstallation(_ id: String, _ json: String, hub: String = NH.hub, auth: String? = nil) async throws
        -> RawResponse
    {
        try await request(
            .put, "/\(hub)/installations/\(id)?\(NH.api)", auth: auth ?? Token.full(),
            headers: [("Content-Type", "application/json")], body: json)
    }

    func getInstallation(_ id: String, hub: String = NH.hub) async throws -> RawResponse {
        try await request(.get, "/\(hub)/installations/\(id)?\(NH.api)", auth: Token.full())
    }

    func patchInstallation(_ id: String, _ ops: String) async throws -> RawResponse {
        try await request(
            .patch, "/\(NH.hub)/installations/\(id)?\(NH.api)", auth: Token.full(),
            headers: [("Content-Type", "application/json-patch+json")], body: ops)
    }

    func sendTemplate(
        _ properties: String, tags: String?, query: String = "", hub: String = NH.hub,
        extraHeaders: [(String, String)] = []
    ) async throws -> RawResponse {
        var headers = [
            ("ServiceBusNotification-Format", "template"), ("Content-Type", "application/json;charset=utf-8"),
        ]
        if let tags { headers.append(("ServiceBusNotification-Tags", tags)) }
        return try await request(
            .post, "/\(hub)/messages?\(NH.api)\(query)", auth: Token.full(),
            headers: headers + extraHeaders, body: properties)
    }

    func sendNative(
        _ format: String, _ body: String, tags: String?, query: String = "",
        contentType: String = "application/json;charset=utf-8",
        extraHeaders: [(String, String)] = []
    ) async throws -> RawResponse {
        var headers = [("ServiceBusNotification-Format", format), ("Content-Type", contentType)]
        if let tags { headers.append(("ServiceBusNotification-Tags", tags)) }
        return try await request(
            .post, "/\(NH.hub)/messages?\(NH.api)\(query)", auth: Token.full(),
            headers: headers + extraHeaders, body: body)
    }

    /// Side channel deliveries, parsed.
    func deliveries(since: Int? = nil) async throws -> [[String: Any]] {
        let response = try await request(.get, "/_emulator/deliveries" + (since.map { "?since=\($0)" } ?? ""))
        #expect(response.status == 200, "\(response)")
        return (response.json as? [[String: Any]]) ?? []
    }
}

// MARK: - Running an emulator

/// Builds an emulator, serves it on a loopback port and runs `body` with a raw client.
func withEmulator(
    _ configuration: EmulatorConfiguration = NH.configuration(), statePath: String? = nil,
    deliveryLimit: Int = 100_000, clock: TestClock = TestClock(),
    _ body: @escaping @Sendable (RawClient, Emulator) async throws -> Void
) async throws {
    let emulator = try await Emulator(
        configuration: configuration, statePath: statePath,
        deliveryLimit: deliveryLimit, now: clock.provider)
    let served = try await EmbeddedEmulator.start(emulator, port: 0)
    do {
        try await body(RawClient(port: served.port), emulator)
    } catch {
        await served.stop()
        throw error
    }
    await served.stop()
}

// MARK: - Small helpers

extension String {
    func matches(_ pattern: String) -> Bool {
        range(of: pattern, options: .regularExpression) != nil
    }
}

/// Parses JSON text; nil when invalid.
func parseJSON(_ text: String) -> Any? {
    try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

/// Structural JSON equality (key order and whitespace ignored).
func jsonEqual(_ lhs: String, _ rhs: String) -> Bool {
    func canonical(_ text: String) -> Data? {
        guard let value = parseJSON(text) else { return nil }
        return try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }
    guard let a = canonical(lhs), let b = canonical(rhs) else { return false }
    return a == b
}

/// The seed tutorial's installation (tag `12345`, template `genericTemplate`).
func seedInstallation(
    id: String = "postman-1", channel: String = "62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA",
    tags: [String] = ["12345"]
) -> String {
    let tagList = tags.map { "\"\($0)\"" }.joined(separator: ",")
    return """
        {"installationId":"\(id)","platform":"apns","pushChannel":"\(channel)","tags":[\(tagList)],\
        "templates":{"genericTemplate":{"body":"{\\"aps\\":{\\"alert\\":\\"$(message)\\"}}"}}}
        """
}

/// An Atom entry for an Apple native registration (§4.2).
func appleRegistrationEntry(token: String, tags: String?) -> String {
    """
    <?xml version="1.0" encoding="utf-8"?><entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml">\
    <AppleRegistrationDescription xmlns:i="http://www.w3.org/2001/XMLSchema-instance" \
    xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect">\
    \(tags.map { "<Tags>\($0)</Tags>" } ?? "")<DeviceToken>\(token)</DeviceToken>\
    </AppleRegistrationDescription></content></entry>
    """
}

/// An Atom entry for an Apple template registration.
func appleTemplateRegistrationEntry(token: String, tags: String?, template: String, name: String) -> String {
    """
    <entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml">\
    <AppleTemplateRegistrationDescription xmlns:i="http://www.w3.org/2001/XMLSchema-instance" \
    xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect">\
    \(tags.map { "<Tags>\($0)</Tags>" } ?? "")<DeviceToken>\(token)</DeviceToken>\
    <BodyTemplate><![CDATA[\(template)]]></BodyTemplate><TemplateName>\(name)</TemplateName>\
    </AppleTemplateRegistrationDescription></content></entry>
    """
}

let atomEntryType = "application/atom+xml;type=entry;charset=utf-8"

/// Content-Type compared without spaces and case.
func normalizedContentType(_ value: String?) -> String {
    (value ?? "").lowercased().replacingOccurrences(of: " ", with: "")
}

/// A 64-char upper-case hex APNs token derived from `seed`.
func apnsToken(_ seed: Int) -> String {
    let hex = String(seed, radix: 16, uppercase: true)
    return String(repeating: "A", count: 64 - hex.count) + hex
}
