import Foundation
import HTTPTypes
import HubEmulator
import PushService
import Testing
import TokenVerification

@Suite("Users who sign in with a Bearer JWT")
struct BearerSignInTests {
    static func tokens() async throws -> BearerTokens {
        var settings = BearerSettings()
        settings.hmacSecret = "a-test-secret-that-is-32-bytes-long!"
        settings.issuer = "https://login.example"
        settings.audience = "pushline"
        return try await BearerTokens.make(settings)
    }

    static func token(_ tokens: BearerTokens, user: String, expiresIn: Double = 600) async throws -> String {
        try await tokens.signForTesting(
            ["iss": "https://login.example", "aud": "pushline", "sub": user],
            numbers: ["exp": Date().timeIntervalSince1970 + expiresIn])
    }

    @Test func aTokensUserRegistersTheirDeviceAndIsNotified() async throws {
        let tokens = try await Self.tokens()
        let dave = try await Self.token(tokens, user: "dave")
        try await ServiceHarness.with(bearer: tokens) { harness in
            let bearer: HTTPFields = [.authorization: "Bearer \(dave)"]
            let created = await harness.call(.post, "/api/register?handle=\(apnsToken(90))", headers: bearer)
            #expect(created.status == 200, "\(created)")
            let id = try #require(try JSONDecoder().decode(String?.self, from: Data(created.text.utf8)))
            let put = await harness.call(
                .put, "/api/register/\(id)", headers: bearer,
                body: #"{"Platform":"apns","Handle":"\#(apnsToken(90))","Tags":[]}"#)
            #expect(put.status == 200, "\(put)")
            #expect(
                await harness.call(.post, "/api/notifications?pns=apns&to_tag=dave", as: "alice", body: #""hi dave""#)
                    .status == 200)
            #expect(await harness.deliveries().map(\.pushChannel) == [apnsToken(90)])
            #expect(harness.lines.lines.contains { $0.contains(#""caller":"token:dave""#) })
        }
    }

    @Test func badTokensAre401WithBothChallengesAndNoClaimValue() async throws {
        let tokens = try await Self.tokens()
        let expired = try await Self.token(tokens, user: "dave", expiresIn: -600)
        let expression = try await Self.token(tokens, user: "bob || alice")
        let slash = try await Self.token(tokens, user: "dave/admin")
        try await ServiceHarness.with(bearer: tokens) { harness in
            for token in [expired, expression, slash, "abc.def.ghi"] {
                let answer = await harness.call(.post, "/api/register", headers: [.authorization: "Bearer \(token)"])
                #expect(answer.status == 401, "\(answer)")
                #expect(
                    answer.headers[.wwwAuthenticate]
                        == #"Basic realm="pushline", charset="UTF-8", Bearer realm="pushline""#)
                #expect(!answer.text.contains("dave") && !answer.text.contains(token))
            }
        }
        // Without `jwt:` in the service file, a Bearer token is refused.
        try await ServiceHarness.with { harness in
            let dave = try await Self.token(tokens, user: "dave")
            let answer = await harness.call(.post, "/api/register", headers: [.authorization: "Bearer \(dave)"])
            #expect(answer.status == 401)
            #expect(answer.detail.contains("not accepted"))
        }
    }
}
