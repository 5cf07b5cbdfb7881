import Foundation
import HTTPServing
import HubWire
import PasswordHashing
import Synchronization

/// Finds who a request comes from: HTTP Basic against the users file, or an API key in the `apikey` header.
///
/// bcrypt makes each password check cost tens of milliseconds on purpose, so a successful check is remembered for
/// five minutes under the SHA-256 of the name, password and hash (never the password itself); failed sign-ins are
/// counted per address and refused with 429 past the limit, before any bcrypt work.
final class Authenticator: Sendable {
    private let users: UserDirectory?
    private let userScopes: Set<Scope>
    private let keys: [ServiceSettings.APIKey]
    private let failures: RateLimiter
    private let verified = Mutex<[String: Double]>([:])
    /// A real hash to check unknown users against, so an unknown name costs what a wrong password does.
    private let decoy = PasswordHash.make("pushline-decoy", cost: 10)

    static let rememberSeconds: Double = 300

    init(users: UserDirectory?, userScopes: Set<Scope>, keys: [ServiceSettings.APIKey], failedSignInsPerMinute: Int) {
        self.users = users
        self.userScopes = userScopes
        self.keys = keys
        failures = RateLimiter(perMinute: failedSignInsPerMinute)
    }

    /// The caller, or the problem to answer (401 with `WWW-Authenticate`, or 429 after too many failures).
    func authenticate(_ request: ServedRequest, address: String, now: Double) async throws(Problem) -> Caller {
        if let wait = failures.isExhausted(address, now: now) {
            throw .tooManyRequests(retryAfter: wait, "too many failed sign-ins from this address; try again in \(wait) s")
        }
        if let query = request.query, QueryPairs(query).names.contains(where: { $0.lowercased() == "apikey" }) {
            // A key in a URL ends up in proxy and access logs; it is refused even when it is right.
            throw unauthorized("API keys are accepted in the `apikey` header only, never in the URL")
        }
        if let key = request.headers["apikey"] {
            let digest = ContentDigest.hex(key)
            // Every key is compared, each in constant time, so the time taken says nothing about which matched.
            var match: ServiceSettings.APIKey?
            for candidate in keys where ConstantTime.equal(candidate.digest, digest) { match = candidate }
            guard let match else { throw failed(address, now: now, "the API key is not valid") }
            return Caller(name: match.name, user: match.user, kind: .apiKey, scopes: match.scopes)
        }
        guard let authorization = request.headers[.authorization] else {
            throw unauthorized("sign in with HTTP Basic (a user of the service)" + (keys.isEmpty ? "" : " or send an `apikey` header"))
        }
        guard authorization.count > 6, authorization.prefix(6).lowercased() == "basic " else {
            throw unauthorized("only HTTP Basic sign-in is configured for users")
        }
        guard let users,
              let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
              let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { throw failed(address, now: now, "the Basic credentials are malformed") }
        let name = String(text[..<colon])
        let password = String(text[text.index(after: colon)...])
        let hash = users.hash(for: name)
        let memo = ContentDigest.hex(name + "\u{0}" + password + "\u{0}" + (hash ?? ""))
        if hash != nil, let until = verified.withLock({ $0[memo] }), until > now {
            return Caller(name: name, user: name, kind: .user, scopes: userScopes)
        }
        let valid = await PasswordHash.verify(password, against: hash ?? decoy)
        guard valid, hash != nil else { throw failed(address, now: now, "the user name or password is wrong") }
        verified.withLock { memos in
            if memos.count > 10_000 { memos = memos.filter { $0.value > now } }
            memos[memo] = now + Self.rememberSeconds
        }
        return Caller(name: name, user: name, kind: .user, scopes: userScopes)
    }

    private func failed(_ address: String, now: Double, _ detail: String) -> Problem {
        _ = failures.take(address, now: now)
        return unauthorized(detail)
    }

    private func unauthorized(_ detail: String) -> Problem {
        Problem(.unauthorized, "Unauthorized", detail, headers: [.wwwAuthenticate: "Basic realm=\"pushline\", charset=\"UTF-8\""])
    }
}

/// Comparison whose time depends only on the lengths, never on where the first difference is.
enum ConstantTime {
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8), b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
