import Foundation
import HTTPTypes
import HubWire
import PipelineConfig
import PipelineCore
import PushService
import Testing

@Suite("Service files: every problem with file:line:column")
struct ServiceFileTests {
    /// Loads `text` as a service file; the diagnostics as printed.
    static func load(_ text: String, environment: [String: String] = [:]) async -> (
        ServiceLoader.Loaded?, [String], String
    ) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-service-\(UUID().uuidString).yaml"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try? text.write(toFile: path, atomically: true, encoding: .utf8)
        let diagnostics = DiagnosticCollector()
        let loaded = await ServiceLoader.load(
            path: path, purpose: .run, environment: environment, diagnostics: diagnostics)
        return (loaded, diagnostics.diagnostics.map { $0.description.replacingOccurrences(of: path, with: "S") }, path)
    }

    static let hubs = """
        version: 1
        hubs:
          users: { connection: "${env:NH}", hub: myhub }
        templates:
          a: { platform: apns, body: '{"aps":{"alert":"$(message)"}}' }
          w: { platform: wns, body: '<toast>$(message)</toast>', headers: { X-WNS-Type: wns/toast } }
          odd: { platform: apns, body: '{"aps":{"alert":"$(secret)"}}' }
        """
    static let environment = [
        "NH": "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=Full;SharedAccessKey=c2VjcmV0",
        "KEY": "0123456789abcdef0123",
    ]

    @Test func aValidFileLoads() async throws {
        let (loaded, messages, _) = await Self.load(
            Self.hubs + """

                service:
                  hub: users
                  listen: { host: 0.0.0.0, port: 9000, trusted-proxies: [127.0.0.1] }
                  api-keys:
                    backend: { key: "${env:KEY}", scopes: [send] }
                    alice-phone: { sha256: "\(String(repeating: "ab", count: 32))", scopes: [register], user: alice }
                  devices: { allowed-tags: "topic_[a-z]+", max-tags: 10 }
                  notify: { templates: { apns: a, wns: w }, who: self }
                """, environment: Self.environment)
        #expect(messages == [])
        let settings = try #require(loaded?.settings)
        #expect(settings.port == 9000)
        #expect(settings.trustedProxies == ["127.0.0.1"])
        #expect(settings.apiKeys.map(\.name) == ["backend", "alice-phone"])
        #expect(settings.apiKeys.last?.user == "alice")
        #expect(settings.notifyTemplates.keys.map(\.rawValue).sorted() == ["apns", "wns"])
        #expect(settings.notifyPolicy == .selfOnly)
        #expect(settings.maxTags == 10)
    }

    @Test func everyProblemIsReportedAtItsPlaceAndNoSecretIsShown() async {
        let (loaded, messages, _) = await Self.load(
            Self.hubs + """

                service:
                  hub: user
                  lisen: {}
                  api-keys:
                    weak: { key: "short-key", scopes: [send] }
                    both: { key: "${env:KEY}", sha256: "ab", scopes: [send] }
                    bad-scope: { key: "${env:KEY}", scopes: [sned] }
                  devices: { identity-tag: "", allowed-tags: "(unclosed" }
                  notify: { templates: { apns: w, gcm: nope, fcmv1: odd } }
                """, environment: Self.environment)
        #expect(loaded == nil)
        #expect(messages.contains("S:9:8: error: unknown hub 'user'; did you mean 'users'?"))
        #expect(messages.contains { $0.hasPrefix("S:10:3: error: unknown key 'lisen'; did you mean 'listen'?") })
        #expect(messages.contains { $0.hasPrefix("S:12:18: error: API key 'weak' is shorter than 16 characters") })
        #expect(messages.contains { $0.hasPrefix("S:13:") && $0.contains("has both `key` and `sha256`") })
        #expect(
            messages.contains { $0.hasPrefix("S:14:") && $0.contains("unknown scope 'sned'; did you mean 'send'?") })
        #expect(
            messages.contains { $0.hasPrefix("S:15:") && $0.contains("'identity-tag' must be a prefix ending in ':'") })
        #expect(
            messages.contains {
                $0.hasPrefix("S:15:") && $0.contains("'allowed-tags' is not a valid regular expression")
            })
        #expect(messages.contains { $0.contains("template 'w' is for wns, not apns") })
        #expect(messages.contains { $0.contains("unknown template 'nope'") })
        #expect(
            messages.contains {
                $0.contains("template 'odd' uses $(secret)") || $0.contains("template 'odd' is for apns, not fcmv1")
            })
        #expect(!messages.contains { $0.contains("short-key") || $0.contains("c2VjcmV0") })
    }

    @Test func aServiceNobodyCanSignInToIsAnError() async {
        let (loaded, messages, _) = await Self.load(
            Self.hubs + "\nservice:\n  hub: users\n", environment: Self.environment)
        #expect(loaded == nil)
        #expect(messages.contains { $0.contains("the service lets nobody in") })
    }

    @Test("a hub's rate: is a batch budget; the service says it does not pace its sends rather than ignoring it")
    func aHubRateIsNotSilentlyIgnored() async {
        let file = Self.hubs.replacingOccurrences(of: "hub: myhub }", with: "hub: myhub, rate: 50 }")
        let (_, messages, _) = await Self.load(file + "\nservice:\n  hub: users\n", environment: Self.environment)
        #expect(messages.contains { $0.hasPrefix("S:3:3: warning: hub 'users': `rate:` paces batch runs") })
    }

    @Test func aMissingUsersFileIsReportedWhereItIsNamed() async {
        let (loaded, messages, _) = await Self.load(
            Self.hubs + "\nservice:\n  hub: users\n  users: { htpasswd: no-such-users-file }\n",
            environment: Self.environment)
        #expect(loaded == nil)
        #expect(
            messages.contains {
                $0.hasPrefix("S:10:22:") && $0.contains("no-such-users-file") && $0.contains("does not exist")
            })
    }

    @Test func unusableJWTKeysAreReportedAtTheSection() async {
        let (loaded, messages, _) = await Self.load(
            Self.hubs + """

                service:
                  hub: users
                  jwt:
                    hs256-secret: "too-short"
                """, environment: Self.environment)
        #expect(loaded == nil)
        #expect(messages.contains { $0.hasPrefix("S:11:5: warning: service.jwt checks no issuer") })
        #expect(
            messages.contains { $0.hasPrefix("S:11:5: error: service.jwt: the HS256 secret must be at least 32 bytes") }
        )
        #expect(!messages.contains { $0.contains("too-short") })
    }
}
