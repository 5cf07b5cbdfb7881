import HubWire
import PipelineCore
import TokenVerification

/// What a service file says `pushline serve` does, checked whole before it listens.
public struct ServiceSettings: Sendable {
    /// Who may notify whom through `POST /api/notifications`.
    public enum NotifyPolicy: String, Sendable, CaseIterable {
        /// Any signed-in caller with the `send` scope may notify any user (the seed tutorial's rule).
        case anyUser = "any-user"
        /// A user may notify only themself (API keys with `send` may notify anyone).
        case selfOnly = "self"
    }

    /// One API key: a name for logs, the SHA-256 of the key, its scopes.
    public struct APIKey: Sendable {
        /// Its name in the service file (logged; the key never is).
        public var name: String
        /// SHA-256 of the key's UTF-8 bytes in lower-case hex; the key itself is not kept.
        public var digest: String
        /// What it may do.
        public var scopes: Set<Scope>
        /// The user whose devices the key manages (a key inside one user's app); nil for a sender key.
        public var user: String?

        /// A key by name, digest, scopes and, for a device key, its user.
        public init(name: String, digest: String, scopes: Set<Scope>, user: String? = nil) {
            self.name = name
            self.digest = digest
            self.scopes = scopes
            self.user = user
        }
    }

    /// The hub every route talks to.
    public var hub: HubDeclaration
    /// Address to bind.
    public var host = "127.0.0.1"
    /// Port to bind.
    public var port = 8080
    /// Proxies (by IP address) whose `X-Forwarded-For` names the client, for rate limits.
    public var trustedProxies: Set<String> = []
    /// The htpasswd file of device users (bcrypt hashes), if users sign in.
    public var usersFile: String?
    /// Where `users.htpasswd` is written, for diagnostics about its lines.
    public var usersFileLocation: SourceLocation?
    /// Scopes every signed-in user has.
    public var userScopes: Set<Scope> = [.register, .send]
    /// How Bearer JWTs are checked, when users may sign in with one.
    package var bearer: BearerSettings?
    /// Where `jwt:` is written, for a key that cannot be used.
    public var bearerLocation: SourceLocation?
    /// Scopes every user signed in with a Bearer token has.
    public var bearerScopes: Set<Scope> = [.register, .send]
    /// API keys.
    public var apiKeys: [APIKey] = []
    /// The tag the server adds for the caller: this prefix and the user name (`username:alice`).
    public var identityTagPrefix = "username:"
    /// Client tags kept must match this whole (nil: the client may add none).
    public var allowedTags: TagPattern?
    /// Most tags a registration may carry, the identity tag included (NH's limit is 60).
    public var maxTags = 60
    /// The template rendered for each platform's user notification.
    public var notifyTemplates: [PushPlatform: TemplateDeclaration] = [:]
    /// Who may notify whom.
    public var notifyPolicy: NotifyPolicy = .anyUser
    /// The templates of the official sample's `POST /api/notifications/requests`, per platform, for visible and
    /// silent notifications (properties `alertMessage`, `alertAction`).
    public var requestTemplates: [PushPlatform: TemplateDeclaration] = [:]
    /// The same for `"silent": true`.
    public var silentRequestTemplates: [PushPlatform: TemplateDeclaration] = [:]
    /// Pipelines callers with the `admin` scope may run (`POST /v1/pipelines/{name}/runs`): name → file path.
    public var pipelines: [String: String] = [:]
    /// Where `pipelines:` is written, for diagnostics about the files it names.
    public var pipelineLocations: [String: SourceLocation] = [:]
    /// Largest request body accepted, in bytes.
    public var maxBodyBytes = 16 * 1024
    /// Requests a caller (user or key) may make per minute.
    public var perIdentityPerMinute = 120
    /// Requests one IP address may make per minute.
    public var perAddressPerMinute = 600
    /// Failed sign-ins one IP address may make per minute before it is refused (429) without checking.
    public var failedSignInsPerMinute = 10

    /// Settings for `hub` with every default.
    public init(hub: HubDeclaration) {
        self.hub = hub
    }
}
