import Foundation
import HTTPTypes
import PipelineCore
import PushService
import Testing

@Suite("Hostile input: guessing, proxies, odd ids and bodies")
struct HostileInputTests {
    @Test func parallelGuessesCannotOutrunTheFailedSignInLimit() async throws {
        try await ServiceHarness.with(clock: .fixed(Date()), { $0.failedSignInsPerMinute = 3 }) { harness in
            let statuses = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        await harness.call(.post, "/api/register", as: "alice", password: "guess", peer: "10.1.1.1")
                            .status
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 401 }.count <= 3, "\(statuses.sorted())")
            #expect(statuses.allSatisfy { [401, 429, 503].contains($0) })
        }
    }

    @Test func behindATrustedProxyEachClientAndUserIsLimitedOnItsOwn() async throws {
        try await ServiceHarness.with(
            clock: .fixed(Date()),
            {
                $0.failedSignInsPerMinute = 2
                $0.trustedProxies = ["10.9.9.9"]
            }
        ) { harness in
            func guess(_ user: String, from client: String) async -> Int {
                await harness.call(
                    .post, "/api/register", as: user, password: "nope",
                    headers: [.forwardedFor: "1.2.3.4, \(client)"],
                    peer: "10.9.9.9"
                ).status
            }
            #expect(await guess("alice", from: "203.0.113.7") == 401)
            #expect(await guess("alice", from: "203.0.113.7") == 401)
            #expect(await guess("alice", from: "203.0.113.7") == 429)
            // Another client behind the same proxy, and another user from the same client, are not locked out.
            let other = await harness.call(
                .post, "/api/register", as: "alice", headers: [.forwardedFor: "198.51.100.2"], peer: "10.9.9.9")
            #expect(other.status == 200)
            let bob = await harness.call(
                .post, "/api/register", as: "bob", headers: [.forwardedFor: "203.0.113.7"], peer: "10.9.9.9")
            #expect(bob.status == 200)
            // A key is checked before any lockout.
            let key = await harness.call(
                .post, "/api/notifications?pns=apns&to_tag=bob", apiKey: ServiceHarness.apiKey,
                headers: [.forwardedFor: "203.0.113.7"], body: #""x""#, peer: "10.9.9.9")
            #expect(key.status == 200)
            // An untrusted peer's X-Forwarded-For is ignored: it is limited by its own address.
            #expect(
                await harness.call(
                    .post, "/api/register", as: "carol", password: "x", headers: [.forwardedFor: "5.5.5.5"],
                    peer: "10.7.7.7"
                ).status == 401)
        }
    }

    @Test func aCaseVariantOfAnotherUsersTagIsRefused() async throws {
        try await ServiceHarness.with({ $0.allowedTags = TagPattern("[A-Za-z:_]+") }) { harness in
            let created = await harness.call(.post, "/api/register", as: "alice")
            let id = try #require(try JSONDecoder().decode(String?.self, from: Data(created.text.utf8)))
            let put = await harness.call(
                .put, "/api/register/\(id)", as: "alice",
                body: #"{"Platform":"apns","Handle":"\#(apnsToken(70))","Tags":["USERNAME:bob"]}"#)
            #expect(put.status == 403)
        }
    }

    @Test(arguments: ["..", ".", "a%2F..", "%zz", "a.b"])
    func oddRegistrationIdsNameNothing(_ id: String) async throws {
        try await ServiceHarness.with { harness in
            let put = await harness.call(
                .put, "/api/register/\(id)", as: "alice",
                body: #"{"Platform":"apns","Handle":"\#(apnsToken(71))","Tags":[]}"#)
            #expect([404, 400].contains(put.status), "\(put)")
            #expect(await harness.call(.delete, "/api/register/\(id)", as: "alice").status == 404)
        }
    }

    @Test func dotInstallationIdsAreRefused() async throws {
        try await ServiceHarness.with { harness in
            for id in [".", ".."] {
                let put = await harness.call(
                    .put, "/api/notifications/installations", as: "alice",
                    body: #"{"installationId":"\#(id)","platform":"apns","pushChannel":"\#(apnsToken(72))"}"#)
                #expect(put.status == 400)
            }
        }
    }

    @Test func aBodyThatIsNotJSONIs415BeforeItIsRead() async throws {
        try await ServiceHarness.with { harness in
            let answer = await harness.call(
                .post, "/api/notifications?pns=apns&to_tag=bob", as: "alice",
                headers: [.contentType: "text/plain"], body: #""hi""#)
            #expect(answer.status == 415)
            #expect(await harness.deliveries().isEmpty)
        }
    }

    @Test func aBrokenQueryEscapeIs400() async throws {
        try await ServiceHarness.with { harness in
            let answer = await harness.call(
                .post, "/api/notifications?pns=apns&to_tag=b%zzob", as: "alice", body: #""hi""#)
            #expect(answer.status == 400)
            #expect(answer.detail.contains("%-escape"))
        }
    }

    @Test func headIsAnsweredWhereGetIs() async throws {
        try await ServiceHarness.with { harness in
            #expect(await harness.call(.head, "/healthz").status == 200)
            #expect(await harness.call(.put, "/healthz").headers[.allow] == "GET, HEAD")
        }
    }

    @Test func usersCannotUseTheBackendsRequestRoute() async throws {
        try await ServiceHarness.with { harness in
            let answer = await harness.call(
                .post, "/api/notifications/requests", as: "alice",
                body: #"{"text":"hi","action":"a","tags":["username:bob"]}"#)
            #expect(answer.status == 403)
            #expect(answer.detail.contains("POST /api/notifications"))
        }
    }

    @Test func aUsersFileWithCRLFLinesCaseTwinsAndLowCostsIsReportedByLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushline-users-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let low = "$2b$04$" + String(repeating: "a", count: 53)
        let good = "$2b$10$" + String(repeating: "b", count: 53)
        try "alice:\(good)\r\nbob:\(low)\r\nAlice:\(good)\r\ncarol:{SHA}abc\r\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let diagnostics = DiagnosticCollector()
        let users = try #require(
            UserDirectory.load(path: path, identityTagPrefix: "username:", reference: nil, diagnostics: diagnostics))
        #expect(users.count == 2)
        let messages = diagnostics.diagnostics.map(\.description)
        #expect(messages.contains { $0.contains(":2:1: warning: user 'bob': the bcrypt cost is 4") })
        #expect(messages.contains { $0.contains(":3:1: error: users 'alice' and 'Alice' differ only in letter case") })
        #expect(messages.contains { $0.contains(":4:1: error: user 'carol': the password is not a bcrypt hash") })
        #expect(!messages.contains { $0.contains("{SHA}abc") || $0.contains(good) })
    }
}
