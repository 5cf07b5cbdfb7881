import Foundation
import HTTPTypes
import HubExpressions
import HubWire
import Hummingbird
import HummingbirdAuth
import PasswordHashing
import PipelineCore
import Synchronization
import TokenVerification

/// Finds who a request comes from: an API key (the `apikey` header, or `Authorization: ApiKey KEY`), or HTTP Basic
/// against the users file.
///
/// bcrypt makes each password check cost tens of milliseconds on purpose, so:
/// - a successful check is remembered for five minutes under the SHA-256 of the name, password and hash (never the
///   password itself);
/// - a failed sign-in is counted per address *and* user name before the check runs (and handed back when the
///   password was right), so parallel guesses cannot outrun the limit, and one attacker behind a shared proxy
///   address cannot lock every user out;
/// - at most `maxConcurrentChecks` run at once; the rest wait their turn in `SignInAdmission`'s bounded queue, where
///   an address with fewer recent failed sign-ins goes first, so a distributed flood of failures cannot take the
///   checks from users who can sign in; a request that cannot get a turn in time is answered 503;
/// - an unknown user is checked against a decoy hash of the users file's highest cost, so it takes as long.
///
/// Keys are checked before any lockout: they are long and random, and guessing them is not helped by the limit.
///
/// As hummingbird-auth's authenticator middleware it sets the context's identity, or refuses the request.
final class Authenticator: AuthenticatorMiddleware, Sendable {
    typealias Context = ServeContext

    private let users: UserDirectory?
    private let userScopes: Set<Scope>
    private let keys: [ServiceSettings.APIKey]
    private let failures: RateLimiter
    private let verified = Mutex<[String: Double]>([:])
    private let admission: SignInAdmission
    private let decoy: String
    private let bearer: BearerTokens?
    private let bearerScopes: Set<Scope>
    private let identityPrefix: String
    private let clock: WallClock

    static let rememberSeconds: Double = 300

    init(
        users: UserDirectory?, userScopes: Set<Scope>, keys: [ServiceSettings.APIKey], failedSignInsPerMinute: Int,
        bearer: BearerTokens? = nil, bearerScopes: Set<Scope> = [], identityPrefix: String = "username:",
        maxConcurrentChecks: Int = max(2, ProcessInfo.processInfo.activeProcessorCount), clock: WallClock = .system
    ) {
        self.clock = clock
        self.bearer = bearer
        self.identityPrefix = identityPrefix
        self.bearerScopes = bearerScopes
        self.users = users
        self.userScopes = userScopes
        self.keys = keys
        admission = SignInAdmission(
            capacity: maxConcurrentChecks, clock: { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 })
        failures = RateLimiter(perMinute: failedSignInsPerMinute)
        decoy = PasswordHash.make("pushline-decoy", cost: users?.highestCost ?? 10)
    }

    /// The caller; the access log learns who it is too.
    func authenticate(request: Request, context: ServeContext) async throws -> Caller? {
        let caller = try await authenticate(
            request.headers, query: request.uri.query, address: context.address,
            now: clock.now().timeIntervalSince1970)
        context.notes.caller = caller
        return caller
    }

    /// The caller, or the problem to answer (401 with `WWW-Authenticate`, 429 after too many failures, 503 when
    /// too many password checks are running).
    func authenticate(_ headers: HTTPFields, query: String?, address: String, now: Double) async throws(Problem)
        -> Caller
    {
        if let query, ReceivedQuery(query).has("apikey") {
            // A key in a URL ends up in proxy and access logs; it is refused even when it is right.
            throw unauthorized("API keys are accepted in the `apikey` header only, never in the URL")
        }
        // `Authorization: ApiKey KEY` is the same key in the form a Prometheus scrape config can send.
        let authorizationKey = headers[.authorization].flatMap { value in
            value.lowercased().hasPrefix("apikey ")
                ? String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces) : nil
        }
        if let key = headers[Self.apiKeyField] ?? authorizationKey {
            let digest = ContentDigest.hex(key)
            // Every key is compared, each in constant time, so the time taken says nothing about which matched.
            var match: ServiceSettings.APIKey?
            for candidate in keys where ConstantTime.equal(candidate.digest, digest) { match = candidate }
            guard let match else {
                if let wait = failures.take("key@" + address, now: now) {
                    throw .tooManyRequests(
                        retryAfter: wait, "too many failed sign-ins from this address; try again in \(wait) s")
                }
                throw unauthorized("the API key is not valid")
            }
            return Caller(name: match.name, user: match.user, kind: .apiKey, scopes: match.scopes)
        }
        guard let authorization = headers[.authorization] else {
            throw unauthorized(
                "sign in with HTTP Basic (a user of the service)" + (keys.isEmpty ? "" : " or send an `apikey` header"))
        }
        if authorization.count > 7, authorization.prefix(7).lowercased() == "bearer " {
            guard let bearer else { throw unauthorized("Bearer tokens are not accepted by this service") }
            switch await bearer.user(from: String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)) {
            case .success(let user):
                // The user becomes part of a tag: a name no tag can hold is refused, not mangled.
                guard !user.contains(where: { "&|!() ".contains($0) }), user.utf8.count <= 64,
                    TagSyntax.problem(with: identityPrefix + user) == nil
                else {
                    throw unauthorized("the token's user name cannot be used")
                }
                return Caller(name: user, user: user, kind: .token, scopes: bearerScopes)
            case .failure(let rejection):
                if let wait = failures.take("token@" + address, now: now) {
                    throw .tooManyRequests(
                        retryAfter: wait, "too many failed sign-ins from this address; try again in \(wait) s")
                }
                throw unauthorized(rejection.reason)
            }
        }
        guard authorization.count > 6, authorization.prefix(6).lowercased() == "basic " else {
            throw unauthorized(
                "sign in with HTTP Basic" + (bearer == nil ? "" : " or a Bearer token")
                    + (keys.isEmpty ? "" : ", or send an API key"))
        }
        guard let users,
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { throw unauthorized("the Basic credentials are malformed") }
        let given = String(text[..<colon])
        let password = String(text[text.index(after: colon)...])
        let entry = users.entry(for: given)
        let memo = ContentDigest.hex(given + "\u{0}" + password + "\u{0}" + (entry?.hash ?? ""))
        if let entry, let until = verified.withLock({ $0[memo] }), until > now {
            return Caller(name: entry.name, user: entry.name, kind: .user, scopes: userScopes)
        }
        // The failure is counted before the check and handed back when the password is right.
        let failureKey = given.lowercased() + "@" + address
        if let wait = failures.take(failureKey, now: now) {
            throw .tooManyRequests(
                retryAfter: wait, "too many failed sign-ins for this user from this address; try again in \(wait) s")
        }
        guard await admission.enter(address: address) else {
            failures.giveBack(failureKey)
            throw Problem(
                .serviceUnavailable, "Service Unavailable", "too many sign-ins are being checked; try again in 1 s",
                headers: [.retryAfter: "1"])
        }
        let valid = await PasswordHash.verify(password, against: entry?.hash ?? decoy)
        admission.leave()
        guard valid, let entry else {
            admission.failed(address: address)
            throw unauthorized("the user name or password is wrong")
        }
        failures.giveBack(failureKey)
        verified.withLock { memos in
            if memos.count > 10_000 { memos = memos.filter { $0.value > now } }
            memos[memo] = now + Self.rememberSeconds
        }
        return Caller(name: entry.name, user: entry.name, kind: .user, scopes: userScopes)
    }

    private static let apiKeyField = HTTPField.Name("apikey")!

    private func unauthorized(_ detail: String) -> Problem {
        Problem(
            .unauthorized, "Unauthorized", detail,
            headers: [
                .wwwAuthenticate: "Basic realm=\"pushline\", charset=\"UTF-8\""
                    + (bearer == nil ? "" : ", Bearer realm=\"pushline\"")
            ])
    }
}

/// Comparison whose time depends only on the lengths, never on where the first difference is.
enum ConstantTime {
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
