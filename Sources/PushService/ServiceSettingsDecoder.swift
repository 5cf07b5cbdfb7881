import Foundation
import HubExpressions
import HubWire
import PipelineConfig
import PipelineCore
import TokenVerification

/// Decodes a service file's `service:` section into `ServiceSettings`, reporting every problem with its
/// `file:line:column` the way pipeline options are reported.
public struct ServiceSettingsDecoder {
    /// The keys of the `service:` section, for its JSON Schema.
    public static var serviceKeys: [OptionSpec] { keys }

    static let keys: [OptionSpec] = [
        OptionSpec("hub", .reference("hub"), required: true, "the declared hub devices register with and notifications go to"),
        OptionSpec("listen", .mapping(listenKeys), "address and port: { host: 127.0.0.1, port: 8080 }"),
        OptionSpec("users", .mapping(userKeys), "device users who sign in with HTTP Basic"),
        OptionSpec("jwt", .mapping(jwtKeys), "users who sign in with a Bearer JWT from an identity provider"),
        OptionSpec("api-keys", .namedMappings(apiKeyKeys), "named API keys (sent in the `apikey` header) and their scopes"),
        OptionSpec("devices", .mapping(deviceKeys), "what a device registration may carry"),
        OptionSpec("notify", .mapping(notifyKeys), "user-to-user notifications: a template per platform and who may notify whom"),
        OptionSpec("requests", .mapping(requestKeys), "the official sample's POST /api/notifications/requests: templates per platform"),
        OptionSpec("limits", .mapping(limitKeys), "request body and rate limits"),
        OptionSpec("pipelines", .stringMap, "pipelines callers with the admin scope may run over HTTP: name → pipeline file"),
    ]
    static let listenKeys: [OptionSpec] = [
        OptionSpec("host", .string, default: "127.0.0.1", "address to bind; put a TLS-terminating proxy in front for other hosts"),
        OptionSpec("port", .integer, default: "8080", "port to bind (1–65535)"),
        OptionSpec("trusted-proxies", .stringList, "IP addresses of proxies in front (TLS terminators) whose X-Forwarded-For names the client"),
    ]
    static let userKeys: [OptionSpec] = [
        OptionSpec("htpasswd", .path, required: true, "htpasswd file of bcrypt hashes (`htpasswd -B`), relative to the service file"),
        OptionSpec("scopes", .stringList, default: "[register, send]", "what every signed-in user may do: register, send, admin"),
    ]
    static let jwtKeys: [OptionSpec] = [
        OptionSpec("issuer", .string, "the `iss` tokens must carry"),
        OptionSpec("audience", .string, "the `aud` tokens must include"),
        OptionSpec("user-claim", .string, default: "sub", "the claim naming the user"),
        OptionSpec("hs256-secret", .string, "an HS256 secret of at least 32 bytes, as ${env:NAME} or ${file:PATH}"),
        OptionSpec("public-key", .string, "an RS256 or ES256 public key in PEM, as ${file:PATH}"),
        OptionSpec("jwks", .string, "a JWKS document (keys with kids), as ${file:PATH}"),
        OptionSpec("scopes", .stringList, default: "[register, send]", "what every user signed in with a token may do"),
        OptionSpec("leeway", .integer, default: "60", "seconds of clock difference allowed for exp and nbf (0–600)"),
    ]
    static let apiKeyKeys: [OptionSpec] = [
        OptionSpec("key", .string, "the key, as ${env:NAME} or ${file:PATH}"),
        OptionSpec("sha256", .string, "or the SHA-256 of the key in hex, so the file holds no secret"),
        OptionSpec("scopes", .stringList, required: true, "what the key may do: register, send, admin"),
        OptionSpec("user", .string, "for a key inside one user's app: the user whose devices it manages"),
    ]
    static let deviceKeys: [OptionSpec] = [
        OptionSpec("identity-tag", .string, default: "username:", "prefix of the tag the server adds for the caller"),
        OptionSpec("allowed-tags", .string, "regular expression a client tag must match whole to be kept; none allowed without it"),
        OptionSpec("max-tags", .integer, default: "60", "most tags on one registration, the identity tag included (1–60)"),
    ]
    static let notifyKeys: [OptionSpec] = [
        OptionSpec("templates", .stringMap, required: true, "template name per platform (apns, fcmv1, gcm, wns, mpns)"),
        OptionSpec("who", .oneOf(ServiceSettings.NotifyPolicy.allCases.map(\.rawValue)), default: "any-user",
                   "any-user: anyone with `send` may notify any user; self: users notify only themselves"),
    ]
    static let requestKeys: [OptionSpec] = [
        OptionSpec("templates", .stringMap, required: true, "template name per platform for visible notifications ($(alertMessage), $(alertAction))"),
        OptionSpec("silent-templates", .stringMap, "template name per platform for `\"silent\": true` requests"),
    ]
    static let limitKeys: [OptionSpec] = [
        OptionSpec("body-bytes", .integer, default: "16384", "largest request body (larger: 413)"),
        OptionSpec("per-identity", .integer, default: "120", "requests per minute one user or key may make (more: 429)"),
        OptionSpec("per-address", .integer, default: "600", "requests per minute one IP address may make (more: 429)"),
        OptionSpec("failed-sign-ins", .integer, default: "10", "failed sign-ins per minute one IP address may make (more: 429)"),
    ]

    /// Properties a notify template may use: `sender`, `recipient`, `message`.
    public static let notifyProperties = ["sender", "recipient", "message"]
    /// Properties a request template may use, as the official sample's templates do.
    public static let requestProperties = ["alertMessage", "alertAction"]

    private let file: ServiceFile
    private let diagnostics: DiagnosticCollector

    /// A decoder for `file`, reporting to `diagnostics`.
    public init(file: ServiceFile, diagnostics: DiagnosticCollector) {
        self.file = file
        self.diagnostics = diagnostics
    }

    /// The settings, or nil after reporting why there are none (errors may also be reported with settings).
    public func decode() -> ServiceSettings? {
        guard let node = file.service else { return nil }
        let reader = OptionReader(node, specs: Self.keys, step: nil, what: "service", diagnostics: diagnostics)
        var hub: HubDeclaration?
        if let (hubName, hubNode) = reader.string("hub") {
            hub = file.hubs.first { $0.name == hubName }
            if hub == nil {
                let names = file.hubs.map(\.name)
                reader.error("unknown hub '\(hubName)'\(Suggestion.didYouMean(hubName, in: names))", at: hubNode,
                             hint: names.isEmpty ? "declare it under `hubs:`" : "declared hubs: \(names.joined(separator: ", "))")
            }
            if let hub, hub.rate != nil {
                // Said rather than silently ignored: the budget is a batch run's, kept through the run journal.
                diagnostics.warning("hub '\(hub.name)': `rate:` paces batch runs (`pushline run`); `pushline serve` sends each request "
                                    + "as it comes", at: hub.location, hint: "bound the service's sends with `limits:` instead")
            }
        }
        // The rest is checked even without a usable hub, so one run reports every problem.
        var settings = ServiceSettings(hub: hub ?? HubDeclaration(name: "", location: node.location, connection: nil, hubName: nil, endpoint: nil))
        if let listen = reader.node("listen") { decodeListen(listen, into: &settings) }
        if let users = reader.node("users") { decodeUsers(users, into: &settings) }
        if let jwt = reader.node("jwt") { decodeJWT(jwt, into: &settings) }
        // Devices first: a device key's user is checked against the identity tag they configure.
        if let devices = reader.node("devices") { decodeDevices(devices, into: &settings) }
        if let keys = reader.node("api-keys") { settings.apiKeys = decodeAPIKeys(keys, identityPrefix: settings.identityTagPrefix) }
        if let notify = reader.node("notify") { decodeNotify(notify, into: &settings) }
        if let requests = reader.node("requests") {
            let requestReader = OptionReader(requests, specs: Self.requestKeys, step: nil, what: "service.requests", diagnostics: diagnostics)
            settings.requestTemplates = templates(requestReader.node("templates"), properties: Self.requestProperties)
            settings.silentRequestTemplates = templates(requestReader.node("silent-templates"), properties: Self.requestProperties)
        }
        if let limits = reader.node("limits") { decodeLimits(limits, into: &settings) }
        if let pipelines = reader.node("pipelines"), let entries = pipelines.entries {
            for entry in entries {
                guard let path = entry.value.scalar?.text, !path.isEmpty else {
                    diagnostics.error("pipeline '\(entry.key)' needs a file path", at: entry.keyLocation, hint: "e.g. digest: daily-digest.yaml")
                    continue
                }
                guard entry.key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), entry.key.count <= 64 else {
                    diagnostics.error("pipeline name '\(entry.key)' must be letters, digits, - and _ (it is part of a URL)", at: entry.keyLocation)
                    continue
                }
                settings.pipelines[entry.key] = FilePath.resolve(path, against: file.directory)
                settings.pipelineLocations[entry.key] = entry.value.location
            }
        }
        // Declared is enough here: a `validate` without the secrets leaves references unresolved.
        if reader.node("users") == nil, reader.node("jwt") == nil, reader.node("api-keys")?.entries?.isEmpty ?? true {
            diagnostics.error("the service lets nobody in: it has neither `users:` nor `api-keys:`", at: node.location,
                              hint: "add `users: { htpasswd: users.htpasswd }` or an API key")
        }
        return hub == nil ? nil : settings
    }

    private func decodeListen(_ node: ConfigNode, into settings: inout ServiceSettings) {
        let reader = OptionReader(node, specs: Self.listenKeys, step: nil, what: "service.listen", diagnostics: diagnostics)
        if let (host, _) = reader.string("host") { settings.host = host }
        if let port = reader.integer("port", in: 1...65535) { settings.port = port }
        for (address, node) in reader.stringList("trusted-proxies") ?? [] {
            guard address.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }), !address.isEmpty else {
                reader.error("'\(address)' is not an IP address", at: node, hint: "e.g. 127.0.0.1 or ::1")
                continue
            }
            settings.trustedProxies.insert(address)
        }
    }

    private func decodeUsers(_ node: ConfigNode, into settings: inout ServiceSettings) {
        let reader = OptionReader(node, specs: Self.userKeys, step: nil, what: "service.users", diagnostics: diagnostics)
        if let (path, pathNode) = reader.string("htpasswd"), pathNode.scalar?.isUnresolved == false {
            settings.usersFile = FilePath.resolve(path, against: file.directory)
            settings.usersFileLocation = pathNode.location
        }
        if let scopes = scopes(reader) { settings.userScopes = scopes }
    }

    private func decodeJWT(_ node: ConfigNode, into settings: inout ServiceSettings) {
        let reader = OptionReader(node, specs: Self.jwtKeys, step: nil, what: "service.jwt", diagnostics: diagnostics)
        var bearer = BearerSettings()
        bearer.issuer = reader.string("issuer")?.value
        bearer.audience = reader.string("audience")?.value
        if let (claim, _) = reader.string("user-claim") { bearer.userClaim = claim }
        bearer.hmacSecret = reader.string("hs256-secret")?.value
        bearer.publicKeyPEM = reader.string("public-key")?.value
        bearer.jwksJSON = reader.string("jwks")?.value
        if let leeway = reader.integer("leeway", in: 0...600) { bearer.leewaySeconds = leeway }
        if let scopes = scopes(reader) { settings.bearerScopes = scopes }
        let keyed = ["hs256-secret", "public-key", "jwks"].filter(reader.contains)
        if keyed.isEmpty {
            diagnostics.error("service.jwt needs a key: `hs256-secret`, `public-key` or `jwks`", at: node.location,
                              hint: "e.g. jwks: ${file:jwks.json}")
        }
        if bearer.issuer == nil || bearer.audience == nil {
            diagnostics.warning("service.jwt checks no \(bearer.issuer == nil ? "issuer" : "audience"): a token any service of the same "
                                + "identity provider got would sign in here", at: node.location, hint: "add `issuer:` and `audience:`")
        }
        settings.bearer = bearer
        settings.bearerLocation = node.location
    }

    private func decodeAPIKeys(_ node: ConfigNode, identityPrefix: String) -> [ServiceSettings.APIKey] {
        guard let entries = node.entries else {
            diagnostics.error("'api-keys' must be a mapping of names, found \(node.kindName)", at: node.location,
                              hint: "write it as:\n  api-keys:\n    backend: { key: ${env:PUSHLINE_API_KEY}, scopes: [send] }")
            return []
        }
        var keys: [ServiceSettings.APIKey] = []
        for entry in entries {
            let what = "API key '\(entry.key)'"
            let reader = OptionReader(entry.value, specs: Self.apiKeyKeys, step: nil, what: what, diagnostics: diagnostics)
            var digest: String?
            let key = reader.string("key")
            let hash = reader.string("sha256")
            switch (key, hash) {
            case (let (text, node)?, nil):
                guard node.scalar?.isUnresolved == false else { break }
                if text.utf8.count < 16 {
                    // The message never echoes the key.
                    reader.error("\(what) is shorter than 16 characters", at: node, hint: "generate one: openssl rand -hex 32")
                } else {
                    if node.scalar?.hasReferences == false {
                        diagnostics.warning("\(what) is written in the service file", at: node.location,
                                            hint: "keep secrets out of git: use ${env:NAME}, ${file:PATH} or `sha256:`")
                    }
                    digest = ContentDigest.hex(text)
                }
            case (nil, let (text, node)?):
                let lowered = text.lowercased()
                if lowered.utf8.count == 64, lowered.allSatisfy(\.isHexDigit) { digest = lowered } else {
                    reader.error("\(what): `sha256` must be 64 hexadecimal digits", at: node,
                                 hint: "printf %s \"$KEY\" | sha256sum")
                }
            case (.some(_), .some(let (_, node))):
                reader.error("\(what) has both `key` and `sha256`", at: node, hint: "keep one")
            case (nil, nil) where !reader.contains("key") && !reader.contains("sha256"):
                diagnostics.error("\(what) needs `key` or `sha256`", at: entry.keyLocation,
                                  hint: "add `key: ${env:PUSHLINE_API_KEY}`")
            case (nil, nil):
                break  // An unresolved reference, already reported.
            }
            var user: String?
            if let (name, userNode) = reader.string("user") {
                if let problem = TagSyntax.problem(with: identityPrefix + name) {
                    reader.error("\(what): user '\(name)' cannot be part of a tag: \(problem)", at: userNode)
                } else {
                    user = name
                }
            }
            if let digest, let scopes = scopes(reader) {
                keys.append(.init(name: entry.key, digest: digest, scopes: scopes, user: user))
            }
        }
        return keys
    }

    private func decodeDevices(_ node: ConfigNode, into settings: inout ServiceSettings) {
        let reader = OptionReader(node, specs: Self.deviceKeys, step: nil, what: "service.devices", diagnostics: diagnostics)
        if let (prefix, prefixNode) = reader.string("identity-tag") {
            // A prefix keeps user tags apart from topic tags and from NH's `$UserId:`/`$InstallationId:` forms.
            if prefix.isEmpty || prefix.hasPrefix("$") || !prefix.hasSuffix(":") {
                reader.error("'identity-tag' must be a prefix ending in ':' that does not start with '$'", at: prefixNode,
                             hint: "e.g. username:")
            } else if let problem = TagSyntax.problem(with: prefix + "user") {
                reader.error("'identity-tag' does not make a valid tag: \(problem)", at: prefixNode, hint: "e.g. username:")
            } else {
                settings.identityTagPrefix = prefix
            }
        }
        if let (pattern, patternNode) = reader.string("allowed-tags") {
            if let compiled = TagPattern(pattern) { settings.allowedTags = compiled } else {
                reader.error("'allowed-tags' is not a valid regular expression", at: patternNode,
                             hint: "e.g. (topic|lang)_[a-z0-9_]{1,40}")
            }
        }
        if let count = reader.integer("max-tags", in: 1...NHLimits.maxTagsPerInstallation) { settings.maxTags = count }
    }

    private func decodeNotify(_ node: ConfigNode, into settings: inout ServiceSettings) {
        let reader = OptionReader(node, specs: Self.notifyKeys, step: nil, what: "service.notify", diagnostics: diagnostics)
        if let policy = reader.oneOf("who", ServiceSettings.NotifyPolicy.allCases.map(\.rawValue)) {
            settings.notifyPolicy = ServiceSettings.NotifyPolicy(rawValue: policy) ?? .anyUser
        }
        settings.notifyTemplates = templates(reader.node("templates"), properties: Self.notifyProperties)
    }

    /// A `platform: template-name` mapping, each template declared, for that platform, using only `properties`.
    private func templates(_ node: ConfigNode?, properties: [String]) -> [PushPlatform: TemplateDeclaration] {
        guard let node, let entries = node.entries else { return [:] }
        var found: [PushPlatform: TemplateDeclaration] = [:]
        let names = file.templates.map(\.name)
        for entry in entries {
            guard let platform = PushPlatform(caseInsensitive: entry.key) else {
                diagnostics.error("unknown platform '\(entry.key)'", at: entry.keyLocation,
                                  hint: "platforms: \(PushPlatform.allCases.map(\.rawValue).joined(separator: ", "))")
                continue
            }
            guard let name = entry.value.scalar?.text else { continue }
            guard let template = file.templates.first(where: { $0.name == name }) else {
                diagnostics.error("unknown template '\(name)'\(Suggestion.didYouMean(name, in: names))", at: entry.value.location,
                                  hint: names.isEmpty ? "declare it under `templates:`" : "declared templates: \(names.joined(separator: ", "))")
                continue
            }
            guard template.platform == platform else {
                diagnostics.error("template '\(name)' is for \(template.platform.rawValue), not \(platform.rawValue)",
                                  at: entry.value.location, hint: "name a \(platform.rawValue) template here")
                continue
            }
            let unknown = Set(template.body?.propertyNames ?? []).subtracting(properties).sorted()
            if !unknown.isEmpty {
                diagnostics.error("template '\(name)' uses \(unknown.map { "$(\($0))" }.joined(separator: ", ")), which this route does not give",
                                  at: entry.value.location, hint: "these templates may use \(properties.map { "$(\($0))" }.joined(separator: ", "))")
                continue
            }
            found[platform] = template
        }
        return found
    }

    private func decodeLimits(_ node: ConfigNode, into settings: inout ServiceSettings) {
        let reader = OptionReader(node, specs: Self.limitKeys, step: nil, what: "service.limits", diagnostics: diagnostics)
        if let bytes = reader.integer("body-bytes", in: 256...(1 << 20)) { settings.maxBodyBytes = bytes }
        if let count = reader.integer("per-identity", in: 1...1_000_000) { settings.perIdentityPerMinute = count }
        if let count = reader.integer("per-address", in: 1...1_000_000) { settings.perAddressPerMinute = count }
        if let count = reader.integer("failed-sign-ins", in: 1...1_000_000) { settings.failedSignInsPerMinute = count }
    }

    private func scopes(_ reader: OptionReader) -> Set<Scope>? {
        guard let list = reader.stringList("scopes") else { return nil }
        var scopes: Set<Scope> = []
        for (text, node) in list {
            if let scope = Scope(rawValue: text) { scopes.insert(scope) } else {
                reader.error("unknown scope '\(text)'\(Suggestion.didYouMean(text, in: Scope.allCases.map(\.rawValue)))", at: node,
                             hint: "scopes: register, send, admin")
                return nil
            }
        }
        return scopes
    }
}
