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
        let token = try await tokens.signForTesting(
            ["iss": "https://login.example", "aud": "pushline", "sub": "alice"],
            numbers: ["exp": now() + 600, "nbf": now() - 10])
        #expect(await tokens.user(from: token) == .success("alice"))
    }

    @Test func theUserComesFromTheConfiguredClaim() async throws {
        let tokens = try await Self.tokens { $0.userClaim = "preferred_username" }
        let token = try await tokens.signForTesting(
            [
                "iss": "https://login.example", "aud": "pushline", "sub": "u-1",
                "preferred_username": "bob",
            ], numbers: ["exp": now() + 600])
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
        #expect(
            await tokens.user(from: try await tokens.signForTesting(issuer, numbers: ["exp": now() + 600]))
                == .failure(.init("the token's issuer is not accepted")))
        var audience = base
        audience["aud"] = "other"
        #expect(
            await tokens.user(from: try await tokens.signForTesting(audience, numbers: ["exp": now() + 600]))
                == .failure(.init("the token is not meant for this service (aud)")))
        let noExp = try await tokens.signForTesting(base, numbers: [:])
        #expect(await tokens.user(from: noExp) == .failure(.init("the token has no exp")))
    }

    @Test func aTokenSignedWithAnotherSecretOrTamperedWithIsRefused() async throws {
        let tokens = try await Self.tokens()
        let other = try await Self.tokens { $0.hmacSecret = "another-secret-that-is-32-bytes-long" }
        let forged = try await other.signForTesting(
            ["iss": "https://login.example", "aud": "pushline", "sub": "alice"],
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
            _ = try await Self.tokens {
                $0.hmacSecret = nil
                $0.publicKeyPEM = "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----"
            }
        }
        await #expect(throws: BearerConfigError.self) { _ = try await Self.tokens { $0.hmacSecret = nil } }
    }

    /// A P-256 public key (made with openssl for this test; a public key is not a secret).
    static let ecPublicKey = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEHn3eknxd7RentfEIk/G7NJZs5fcK
        h0y9CQ9ZRgzzHNb53a30+PBuBDXZEG04M1tT3nBgmfWtT9qNflQFDWIz5w==
        -----END PUBLIC KEY-----
        """

    @Test func aSecretAndAPublicKeyTogetherEachCheckOnlyTheirOwnAlgorithm() async throws {
        let tokens = try await Self.tokens { $0.publicKeyPEM = Self.ecPublicKey }
        let hs = try await tokens.signForTesting(
            ["iss": "https://login.example", "aud": "pushline", "sub": "alice"],
            numbers: ["exp": now() + 600])
        #expect(await tokens.user(from: hs) == .success("alice"))
        // The same HS256-signed token relabelled ES256 goes to the EC key, which refuses it.
        let parts = hs.split(separator: ".")
        let relabelled = "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9." + parts[1] + "." + parts[2]
        #expect(await tokens.user(from: relabelled) == .failure(.init("the token's signature or claims are not valid")))
    }

    @Test func jwksKeysMustNameTheirKidAndAlgorithm() async {
        let noAlg =
            #"{"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"Hn3eknxd7RentfEIk_G7NJZs5fcKh0y9CQ9ZRgzzHNY","y":"-d2t9PjwbgQ12RBtODNbU95wYJn1rU_ajX5UBQ1iM-c"}]}"#
        await #expect(throws: BearerConfigError.self) {
            _ = try await Self.tokens {
                $0.hmacSecret = nil
                $0.jwksJSON = noAlg
            }
        }
        await #expect(throws: BearerConfigError.self) {
            _ = try await Self.tokens {
                $0.hmacSecret = nil
                $0.jwksJSON = #"{"keys":[]}"#
            }
        }
        let withAlg = noAlg.replacingOccurrences(of: #""kid":"k1""#, with: #""kid":"k1","alg":"ES256""#)
        await #expect(throws: Never.self) {
            _ = try await Self.tokens {
                $0.hmacSecret = nil
                $0.jwksJSON = withAlg
            }
        }
    }
}
