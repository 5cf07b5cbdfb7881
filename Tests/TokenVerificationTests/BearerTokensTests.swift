import Foundation
import Testing
import TokenVerification

@Suite struct BearerTokensTests {
    static let secret = "a-test-secret-that-is-32-bytes-long!"

    static func tokens(_ adjust: (inout BearerSettings) -> Void = { _ in }) async throws -> BearerTokens {
        var settings = BearerSettings()
        settings.hmacSecret = secret
        settings.issuer = "https://login.example"
        settings.audience = "pushline"
        adjust(&settings)
        return try await BearerTokens.make(settings)
    }

    func now() -> Double { Date().timeIntervalSince1970 }

    @Test func aValidTokenNamesItsUser() async throws {
        let tokens = try await Self.tokens()
        let token = try await tokens.signForTesting(["iss": "https://login.example", "aud": "pushline", "sub": "alice"],
                                                    numbers: ["exp": now() + 600, "nbf": now() - 10])
        #expect(await tokens.user(from: token) == .success("alice"))
    }

    @Test func theUserComesFromTheConfiguredClaim() async throws {
        let tokens = try await Self.tokens { $0.userClaim = "preferred_username" }
        let token = try await tokens.signForTesting(["iss": "https://login.example", "aud": "pushline", "sub": "u-1",
                                                     "preferred_username": "bob"], numbers: ["exp": now() + 600])
        #expect(await tokens.user(from: token) == .success("bob"))
    }

    @Test func expiredNotYetValidWrongIssuerOrAudienceAreRefused() async throws {
        let tokens = try await Self.tokens()
        let base = ["iss": "https://login.example", "aud": "pushline", "sub": "alice"]
        let expired = try await tokens.signForTesting(base, numbers: ["exp": now() - 120])
        #expect(await tokens.user(from: expired) == .failure(.init("the token has expired")))
        let early = try await tokens.signForTesting(base, numbers: ["exp": now() + 600, "nbf": now() + 300])
        #expect(await tokens.user(from: early) == .failure(.init("the token is not valid yet")))
        var issuer = base
        issuer["iss"] = "https://evil.example"
        #expect(await tokens.user(from: try await tokens.signForTesting(issuer, numbers: ["exp": now() + 600]))
                == .failure(.init("the token's issuer is not accepted")))
        var audience = base
        audience["aud"] = "other"
        #expect(await tokens.user(from: try await tokens.signForTesting(audience, numbers: ["exp": now() + 600]))
                == .failure(.init("the token is not meant for this service (aud)")))
        let noExp = try await tokens.signForTesting(base, numbers: [:])
        #expect(await tokens.user(from: noExp) == .failure(.init("the token has no exp")))
    }

    @Test func aTokenSignedWithAnotherSecretOrTamperedWithIsRefused() async throws {
        let tokens = try await Self.tokens()
        let other = try await Self.tokens { $0.hmacSecret = "another-secret-that-is-32-bytes-long" }
        let forged = try await other.signForTesting(["iss": "https://login.example", "aud": "pushline", "sub": "alice"],
                                                    numbers: ["exp": now() + 600])
        #expect(await tokens.user(from: forged) == .failure(.init("the token's signature or claims are not valid")))
        let parts = forged.split(separator: ".")
        let unsigned = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + parts[1] + "."
        #expect(await tokens.user(from: unsigned) == .failure(.init("tokens signed with none are not accepted")))
        #expect(await tokens.user(from: "not a token") == .failure(.init("the token is not a JWT")))
    }

    @Test func unusableKeysAreConfigurationErrors() async {
        await #expect(throws: BearerConfigError.self) { _ = try await Self.tokens { $0.hmacSecret = "short" } }
        await #expect(throws: BearerConfigError.self) {
            _ = try await Self.tokens { $0.hmacSecret = nil; $0.publicKeyPEM = "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----" }
        }
        await #expect(throws: BearerConfigError.self) { _ = try await Self.tokens { $0.hmacSecret = nil } }
    }
}
