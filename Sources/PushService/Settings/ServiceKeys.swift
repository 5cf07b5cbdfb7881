import HubWire
import PipelineCore

/// The keys of a service file's `service:` section and of its mappings, each declared once: spelling, type,
/// default, bounds and meaning (the JSON Schema and the files reference are made from them).
extension ServiceSettingsDecoder {
    /// `service:`.
    struct ServiceKeys: DeclaredOptions {
        @Key(
            .text("hub", required: true, "the declared hub devices register with and notifications go to").documented(
                as: .reference("hub")))
        var hub: String?
        @Key(
            .node(OptionSpec("listen", .mapping(ListenKeys.specs), "address and port: { host: 127.0.0.1, port: 8080 }"))
        ) var listen: ConfigNode?
        @Key(.node(OptionSpec("users", .mapping(UserKeys.specs), "device users who sign in with HTTP Basic")))
        var users: ConfigNode?
        @Key(
            .node(
                OptionSpec(
                    "jwt", .mapping(JWTKeys.specs), "users who sign in with a Bearer JWT from an identity provider")))
        var jwt: ConfigNode?
        @Key(
            .node(
                OptionSpec(
                    "api-keys", .namedMappings(APIKeyKeys.specs),
                    "named API keys (sent in the `apikey` header) and their scopes")))
        var apiKeys: ConfigNode?
        @Key(.node(OptionSpec("devices", .mapping(DeviceKeys.specs), "what a device registration may carry")))
        var devices: ConfigNode?
        @Key(
            .node(
                OptionSpec(
                    "notify", .mapping(NotifyKeys.specs),
                    "user-to-user notifications: a template per platform and who may notify whom")))
        var notify: ConfigNode?
        @Key(
            .node(
                OptionSpec(
                    "requests", .mapping(RequestKeys.specs),
                    "the official sample's POST /api/notifications/requests: templates per platform")))
        var requests: ConfigNode?
        @Key(.node(OptionSpec("limits", .mapping(LimitKeys.specs), "request body and rate limits"))) var limits:
            ConfigNode?
        @Key(
            .node(
                OptionSpec(
                    "pipelines", .stringMap,
                    "pipelines callers with the admin scope may run over HTTP: name → pipeline file")))
        var pipelines: ConfigNode?

        init() {}
    }

    /// `service.listen`.
    struct ListenKeys: DeclaredOptions {
        @Key(
            .text("host", default: "127.0.0.1", "address to bind; put a TLS-terminating proxy in front for other hosts")
        ) var host: String
        @Key(.integer("port", in: 1...65535, default: 8080, "port to bind")) var port: Int
        @Key(
            .stringList(
                "trusted-proxies",
                "IP addresses of proxies in front (TLS terminators) whose X-Forwarded-For names the client"))
        var trustedProxies: [(value: String, node: ConfigNode)]

        init() {}
    }

    /// `service.users`.
    struct UserKeys: DeclaredOptions {
        @Key(
            .path(
                "htpasswd", required: true,
                "htpasswd file of bcrypt hashes (`htpasswd -B`), relative to the service file")) var htpasswd: String?
        @Key(.scopes("scopes", default: [.register, .send], "what every signed-in user may do: register, send, admin"))
        var scopes: Set<Scope>

        init() {}
    }

    /// `service.jwt`.
    struct JWTKeys: DeclaredOptions {
        @Key(.text("issuer", "the `iss` tokens must carry")) var issuer: String?
        @Key(.text("audience", "the `aud` tokens must include")) var audience: String?
        @Key(.text("user-claim", default: "sub", "the claim naming the user")) var userClaim: String
        @Key(.text("hs256-secret", "an HS256 secret of at least 32 bytes, as ${env:NAME} or ${file:PATH}"))
        var hs256Secret: String?
        @Key(.text("public-key", "an RS256 or ES256 public key in PEM, as ${file:PATH}")) var publicKey: String?
        @Key(.text("jwks", "a JWKS document (keys with kids), as ${file:PATH}")) var jwks: String?
        @Key(.scopes("scopes", default: [.register, .send], "what every user signed in with a token may do"))
        var scopes: Set<Scope>
        @Key(.integer("leeway", in: 0...600, default: 60, "seconds of clock difference allowed for exp and nbf"))
        var leeway: Int

        init() {}
    }

    /// One of `service.api-keys`.
    struct APIKeyKeys: DeclaredOptions {
        @Key(.text("key", "the key, as ${env:NAME} or ${file:PATH}")) var key: String?
        @Key(.text("sha256", "or the SHA-256 of the key in hex, so the file holds no secret")) var sha256: String?
        @Key(.scopes("scopes", required: true, "what the key may do: register, send, admin")) var scopes: Set<Scope>?
        @Key(.text("user", "for a key inside one user's app: the user whose devices it manages")) var user: String?

        init() {}
    }

    /// `service.devices`.
    struct DeviceKeys: DeclaredOptions {
        @Key(.text("identity-tag", default: "username:", "prefix of the tag the server adds for the caller"))
        var identityTag: String
        @Key(
            .text(
                "allowed-tags", "regular expression a client tag must match whole to be kept; none allowed without it"))
        var allowedTags: String?
        @Key(
            .integer(
                "max-tags", in: 1...NHLimits.maxTagsPerInstallation, default: NHLimits.maxTagsPerInstallation,
                "most tags on one registration, the identity tag included"))
        var maxTags: Int

        init() {}
    }

    /// `service.notify`.
    struct NotifyKeys: DeclaredOptions {
        @Key(
            .node(
                OptionSpec(
                    "templates", .stringMap, required: true, "template name per platform (apns, fcmv1, gcm, wns, mpns)")
            ))
        var templates: ConfigNode?
        @Key(
            .choice(
                "who", default: ServiceSettings.NotifyPolicy.anyUser,
                "any-user: anyone with `send` may notify any user; self: users notify only themselves"))
        var who: ServiceSettings.NotifyPolicy

        init() {}
    }

    /// `service.requests`.
    struct RequestKeys: DeclaredOptions {
        @Key(
            .node(
                OptionSpec(
                    "templates", .stringMap, required: true,
                    "template name per platform for visible notifications ($(alertMessage), $(alertAction))")))
        var templates: ConfigNode?
        @Key(
            .node(
                OptionSpec("silent-templates", .stringMap, "template name per platform for `\"silent\": true` requests")
            )) var silentTemplates: ConfigNode?

        init() {}
    }

    /// `service.limits`.
    struct LimitKeys: DeclaredOptions {
        @Key(.integer("body-bytes", in: 256...(1 << 20), default: 16 * 1024, "largest request body (larger: 413)"))
        var bodyBytes: Int
        @Key(
            .integer(
                "per-identity", in: 1...1_000_000, default: 120,
                "requests per minute one user or key may make (more: 429)")) var perIdentity: Int
        @Key(
            .integer(
                "per-address", in: 1...1_000_000, default: 600,
                "requests per minute one IP address may make (more: 429)")) var perAddress: Int
        @Key(
            .integer(
                "failed-sign-ins", in: 1...1_000_000, default: 10,
                "failed sign-ins per minute one IP address may make (more: 429)"))
        var failedSignIns: Int

        init() {}
    }
}

extension OptionKey where Value == Set<Scope> {
    /// A list of scopes (register, send, admin), with "did you mean" for an unknown one.
    static func scopes(
        _ key: String, required: Bool = false, default defaultValue: Set<Scope>? = nil, _ summary: String
    ) -> OptionKey {
        let shown = defaultValue.map { "[" + $0.sorted().map(\.rawValue).joined(separator: ", ") + "]" }
        return OptionKey(
            OptionSpec(key, .stringList, required: required, default: shown, summary), default: defaultValue
        ) { reader, _ in
            guard let list = reader.stringList(key) else { return nil }
            var scopes: Set<Scope> = []
            for (text, node) in list {
                guard let scope = Scope(rawValue: text) else {
                    reader.error(
                        "unknown scope '\(text)'\(Suggestion.didYouMean(text, in: Scope.allCases.map(\.rawValue)))",
                        at: node,
                        hint: "scopes: register, send, admin")
                    return nil
                }
                scopes.insert(scope)
            }
            return scopes
        }
    }
}
