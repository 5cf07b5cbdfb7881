import Foundation
import JWTKit

/// Verifies Bearer JWTs for `pushline serve`: the signature with the configured keys (HS256 secret, RS256 or ES256
/// public key, or a JWKS), the header's `alg` against the keys' algorithms (no algorithm confusion, no `none`),
/// `exp` (required), `nbf`, `iss` and `aud` with a small leeway, and the user from a configurable claim. The one
/// place that imports a JWT library.
package final class BearerTokens: Sendable {
    /// One collection per algorithm, chosen by the token header's `alg`: a key only ever checks tokens of its own
    /// algorithm, and a key without a kid cannot become another algorithm's default.
    private let collections: [String: JWTKeyCollection]
    private let settings: BearerSettings

    private init(collections: [String: JWTKeyCollection], settings: BearerSettings) {
        self.collections = collections
        self.settings = settings
    }

    /// Keys from `settings`; throws a message saying which key is unusable (never its value).
    package static func make(_ settings: BearerSettings) async throws(BearerConfigError) -> BearerTokens {
        var collections: [String: JWTKeyCollection] = [:]
        if let secret = settings.hmacSecret {
            // jwt-kit asserts on a short secret in debug builds and takes it silently in release ones.
            guard secret.utf8.count >= 32 else { throw BearerConfigError("the HS256 secret must be at least 32 bytes") }
            let keys = JWTKeyCollection()
            await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
            collections["HS256"] = keys
        }
        if let pem = settings.publicKeyPEM {
            let keys = JWTKeyCollection()
            if let rsa = try? Insecure.RSA.PublicKey(pem: pem) {
                await keys.add(rsa: rsa, digestAlgorithm: .sha256)
                collections["RS256"] = keys
            } else if let ec = try? ES256PublicKey(pem: pem) {
                await keys.add(ecdsa: ec)
                collections["ES256"] = keys
            } else {
                throw BearerConfigError("the public key is not an RSA (2048 bits or more) or P-256 public key in PEM")
            }
        }
        if let jwks = settings.jwksJSON {
            // Every key names its kid and its algorithm (RS256 or ES256): a token's kid must find one, and no token
            // header can choose a key's algorithm.
            guard let object = try? JSONSerialization.jsonObject(with: Data(jwks.utf8)) as? [String: Any],
                let list = object["keys"] as? [[String: Any]], !list.isEmpty
            else { throw BearerConfigError("the JWKS must be a JSON object with a non-empty `keys` list") }
            for algorithm in ["RS256", "ES256"] {
                let chosen = list.filter { $0["alg"] as? String == algorithm }
                guard !chosen.isEmpty else { continue }
                guard collections[algorithm] == nil else {
                    throw BearerConfigError("give \(algorithm) keys either as `public-key` or in the JWKS, not both")
                }
                guard chosen.allSatisfy({ ($0["kid"] as? String)?.isEmpty == false }),
                    let data = try? JSONSerialization.data(withJSONObject: ["keys": chosen])
                else {
                    throw BearerConfigError("every JWKS key needs a kid")
                }
                let keys = JWTKeyCollection()
                do {
                    try await keys.add(jwksJSON: String(decoding: data, as: UTF8.self))
                } catch {
                    throw BearerConfigError("the JWKS cannot be used: its \(algorithm) keys are not valid")
                }
                await keys.clearDefault()
                collections[algorithm] = keys
            }
            guard list.allSatisfy({ ["RS256", "ES256"].contains($0["alg"] as? String ?? "") }) else {
                throw BearerConfigError("every JWKS key needs `alg` RS256 or ES256")
            }
        }
        guard !collections.isEmpty else { throw BearerConfigError("give a secret, a public key or a JWKS") }
        return BearerTokens(collections: collections, settings: settings)
    }

    /// The user the token names, or why it is refused (never a claim value or the token).
    package func user(from token: String, now: Date = Date()) async -> Result<String, BearerRejection> {
        guard let alg = Self.headerAlgorithm(token) else { return .failure(.init("the token is not a JWT")) }
        guard let keys = collections[alg] else { return .failure(.init("tokens signed with \(alg) are not accepted")) }
        let claims: Claims
        do {
            claims = try await keys.verify(token, as: Claims.self)
        } catch {
            return .failure(.init("the token's signature or claims are not valid"))
        }
        let leeway = TimeInterval(settings.leewaySeconds)
        guard let exp = claims.number("exp") else { return .failure(.init("the token has no exp")) }
        guard now.timeIntervalSince1970 - leeway < exp else { return .failure(.init("the token has expired")) }
        if let nbf = claims.number("nbf"), now.timeIntervalSince1970 + leeway < nbf {
            return .failure(.init("the token is not valid yet"))
        }
        if let issuer = settings.issuer, claims.all["iss"]?.asString != issuer {
            return .failure(.init("the token's issuer is not accepted"))
        }
        if let audience = settings.audience {
            let audiences =
                claims.all["aud"].map { field in
                    field.asString.map { [$0] } ?? field.asArray?.compactMap(\.asString) ?? []
                } ?? []
            guard audiences.contains(audience) else {
                return .failure(.init("the token is not meant for this service (aud)"))
            }
        }
        guard let user = claims.all[settings.userClaim]?.asString, !user.isEmpty else {
            return .failure(.init("the token has no \(settings.userClaim) claim naming the user"))
        }
        return .success(user)
    }

    /// Signs `claims` with the configured HS256 secret (tests and local tokens only).
    package func signForTesting(_ claims: [String: String], numbers: [String: Double]) async throws -> String {
        var all: [String: JWTHeaderField] = claims.mapValues { .string($0) }
        for (name, value) in numbers { all[name] = .decimal(value) }
        guard let keys = collections["HS256"] else { throw BearerConfigError("no HS256 secret to sign with") }
        return try await keys.sign(Claims(all: all))
    }

    /// The `alg` of the token's header, read before anything is trusted.
    static func headerAlgorithm(_ token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = parts.first
        else { return nil }
        var base64 = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        // A header that names a key twice could be read one way here and another by the JWT library: refused.
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
            text.components(separatedBy: "\"alg\"").count == 2,
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["alg"] as? String
    }
}

/// Every top-level claim, so the user claim can be any name; times are checked by `BearerTokens` with a leeway.
struct Claims: JWTPayload {
    let all: [String: JWTHeaderField]

    init(all: [String: JWTHeaderField]) { self.all = all }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ClaimKey.self)
        var all: [String: JWTHeaderField] = [:]
        for key in container.allKeys { all[key.stringValue] = try container.decode(JWTHeaderField.self, forKey: key) }
        self.all = all
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ClaimKey.self)
        for (name, value) in all { try container.encode(value, forKey: ClaimKey(name)) }
    }

    func verify(using _: some JWTAlgorithm) throws {}

    func number(_ name: String) -> Double? {
        guard let field = all[name] else { return nil }
        return field.asDecimal ?? field.asInt.map(Double.init)
    }
}

struct ClaimKey: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}
