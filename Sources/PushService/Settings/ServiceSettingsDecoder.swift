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

    static var keys: [OptionSpec] { ServiceKeys.specs }

    /// Properties a notify template may use: `sender`, `recipient`, `message`.
    public static let notifyProperties = ["sender", "recipient", "message"]
    /// Properties a request template may use, as the official sample's templates do.
    public static let requestProperties = ["alertMessage", "alertAction"]

    let file: ServiceFile
    let diagnostics: DiagnosticCollector

    /// A decoder for `file`, reporting to `diagnostics`.
    public init(file: ServiceFile, diagnostics: DiagnosticCollector) {
        self.file = file
        self.diagnostics = diagnostics
    }

    /// The settings, or nil after reporting why there are none (errors may also be reported with settings).
    public func decode() -> ServiceSettings? {
        guard let node = file.service else { return nil }
        let reader = OptionReader(node, specs: Self.keys, step: nil, what: "service", diagnostics: diagnostics)
        let keys = ServiceKeys(reading: reader)
        var hub: HubDeclaration?
        if let hubName = keys.hub, let hubNode = keys.$hub.node {
            hub = file.hubs.first { $0.name == hubName }
            if hub == nil {
                let names = file.hubs.map(\.name)
                reader.error(
                    "unknown hub '\(hubName)'\(Suggestion.didYouMean(hubName, in: names))", at: hubNode,
                    hint: names.isEmpty ? "declare it under `hubs:`" : "declared hubs: \(names.joined(separator: ", "))"
                )
            }
            if let hub, hub.rate != nil {
                // Said rather than silently ignored: the budget is a batch run's, kept through the run journal.
                diagnostics.warning(
                    "hub '\(hub.name)': `rate:` paces batch runs (`pushline run`); `pushline serve` sends each request "
                        + "as it comes", at: hub.location, hint: "bound the service's sends with `limits:` instead")
            }
        }
        // The rest is checked even without a usable hub, so one run reports every problem.
        var settings = ServiceSettings(
            hub: hub ?? HubDeclaration(name: "", location: node.location, connection: nil, hubName: nil, endpoint: nil))
        if let listen = keys.listen { decodeListen(listen, into: &settings) }
        if let users = keys.users { decodeUsers(users, into: &settings) }
        if let jwt = keys.jwt { decodeJWT(jwt, into: &settings) }
        // Devices first: a device key's user is checked against the identity tag they configure.
        if let devices = keys.devices { decodeDevices(devices, into: &settings) }
        if let apiKeys = keys.apiKeys {
            settings.apiKeys = decodeAPIKeys(apiKeys, identityPrefix: settings.identityTagPrefix)
        }
        if let notify = keys.notify { decodeNotify(notify, into: &settings) }
        if let requests = keys.requests {
            let requestReader = OptionReader(
                requests, specs: RequestKeys.specs, step: nil, what: "service.requests", diagnostics: diagnostics)
            let requestKeys = RequestKeys(reading: requestReader)
            settings.requestTemplates = templates(requestKeys.templates, properties: Self.requestProperties)
            settings.silentRequestTemplates = templates(requestKeys.silentTemplates, properties: Self.requestProperties)
        }
        if let limits = keys.limits { decodeLimits(limits, into: &settings) }
        if let pipelines = keys.pipelines, let entries = pipelines.entries {
            for entry in entries {
                guard let path = entry.value.scalar?.text, !path.isEmpty else {
                    diagnostics.error(
                        "pipeline '\(entry.key)' needs a file path", at: entry.keyLocation,
                        hint: "e.g. digest: daily-digest.yaml")
                    continue
                }
                guard entry.key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
                    entry.key.count <= 64
                else {
                    diagnostics.error(
                        "pipeline name '\(entry.key)' must be letters, digits, - and _ (it is part of a URL)",
                        at: entry.keyLocation)
                    continue
                }
                settings.pipelines[entry.key] = FilePath.resolve(path, against: file.directory)
                settings.pipelineLocations[entry.key] = entry.value.location
            }
        }
        // Declared is enough here: a `validate` without the secrets leaves references unresolved.
        if keys.users == nil, keys.jwt == nil, keys.apiKeys?.entries?.isEmpty ?? true {
            diagnostics.error(
                "the service lets nobody in: it has neither `users:` nor `api-keys:`", at: node.location,
                hint: "add `users: { htpasswd: users.htpasswd }` or an API key")
        }
        return hub == nil ? nil : settings
    }

    private func decodeListen(_ node: ConfigNode, into settings: inout ServiceSettings) {
        let reader = OptionReader(
            node, specs: ListenKeys.specs, step: nil, what: "service.listen", diagnostics: diagnostics)
        let keys = ListenKeys(reading: reader)
        settings.host = keys.host
        settings.port = keys.port
        for (address, node) in keys.trustedProxies {
            guard address.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }), !address.isEmpty else {
                reader.error("'\(address)' is not an IP address", at: node, hint: "e.g. 127.0.0.1 or ::1")
                continue
            }
            settings.trustedProxies.insert(address)
        }
    }

    private func decodeUsers(_ node: ConfigNode, into settings: inout ServiceSettings) {
        let reader = OptionReader(
            node, specs: UserKeys.specs, step: nil, what: "service.users", diagnostics: diagnostics)
        let keys = UserKeys(reading: reader)
        if let path = keys.htpasswd, let pathNode = keys.$htpasswd.node {
            settings.usersFile = FilePath.resolve(path, against: file.directory)
            settings.usersFileLocation = pathNode.location
        }
        settings.userScopes = keys.scopes
    }

    private func decodeJWT(_ node: ConfigNode, into settings: inout ServiceSettings) {
        let reader = OptionReader(node, specs: JWTKeys.specs, step: nil, what: "service.jwt", diagnostics: diagnostics)
        let keys = JWTKeys(reading: reader)
        var bearer = BearerSettings()
        bearer.issuer = keys.issuer
        bearer.audience = keys.audience
        bearer.userClaim = keys.userClaim
        bearer.hmacSecret = keys.hs256Secret
        bearer.publicKeyPEM = keys.publicKey
        bearer.jwksJSON = keys.jwks
        bearer.leewaySeconds = keys.leeway
        settings.bearerScopes = keys.scopes
        let keyed = [keys.$hs256Secret.key, keys.$publicKey.key, keys.$jwks.key].filter(reader.contains)
        if keyed.isEmpty {
            diagnostics.error(
                "service.jwt needs a key: `hs256-secret`, `public-key` or `jwks`", at: node.location,
                hint: "e.g. jwks: ${file:jwks.json}")
        }
        if bearer.issuer == nil || bearer.audience == nil {
            diagnostics.warning(
                "service.jwt checks no \(bearer.issuer == nil ? "issuer" : "audience"): a token any service of the same "
                    + "identity provider got would sign in here", at: node.location,
                hint: "add `issuer:` and `audience:`")
        }
        settings.bearer = bearer
        settings.bearerLocation = node.location
    }

    private func decodeAPIKeys(_ node: ConfigNode, identityPrefix: String) -> [ServiceSettings.APIKey] {
        guard let entries = node.entries else {
            diagnostics.error(
                "'api-keys' must be a mapping of names, found \(node.kindName)", at: node.location,
                hint: "write it as:\n  api-keys:\n    backend: { key: ${env:PUSHLINE_API_KEY}, scopes: [send] }")
            return []
        }
        var keys: [ServiceSettings.APIKey] = []
        for entry in entries {
            let what = "API key '\(entry.key)'"
            let reader = OptionReader(
                entry.value, specs: APIKeyKeys.specs, step: nil, what: what, diagnostics: diagnostics)
            let declared = APIKeyKeys(reading: reader)
            var digest: String?
            let key = declared.key.flatMap { text in declared.$key.node.map { (text, $0) } }
            let hash = declared.sha256.flatMap { text in declared.$sha256.node.map { (text, $0) } }
            switch (key, hash) {
            case (let (text, node)?, nil):
                if text.utf8.count < 16 {
                    // The message never echoes the key.
                    reader.error(
                        "\(what) is shorter than 16 characters", at: node, hint: "generate one: openssl rand -hex 32")
                } else {
                    if node.scalar?.hasReferences == false {
                        diagnostics.warning(
                            "\(what) is written in the service file", at: node.location,
                            hint: "keep secrets out of git: use ${env:NAME}, ${file:PATH} or `sha256:`")
                    }
                    digest = ContentDigest.hex(text)
                }
            case (nil, let (text, node)?):
                let lowered = text.lowercased()
                if lowered.utf8.count == 64, lowered.allSatisfy(\.isHexDigit) {
                    digest = lowered
                } else {
                    reader.error(
                        "\(what): `sha256` must be 64 hexadecimal digits", at: node,
                        hint: "printf %s \"$KEY\" | sha256sum")
                }
            case (.some(_), .some(let (_, node))):
                reader.error("\(what) has both `key` and `sha256`", at: node, hint: "keep one")
            case (nil, nil) where !reader.contains(declared.$key.key) && !reader.contains(declared.$sha256.key):
                diagnostics.error(
                    "\(what) needs `key` or `sha256`", at: entry.keyLocation,
                    hint: "add `key: ${env:PUSHLINE_API_KEY}`")
            case (nil, nil):
                break  // An unresolved reference, already reported.
            }
            var user: String?
            if let name = declared.user, let userNode = declared.$user.node {
                if let problem = TagSyntax.problem(with: identityPrefix + name) {
                    reader.error("\(what): user '\(name)' cannot be part of a tag: \(problem)", at: userNode)
                } else {
                    user = name
                }
            }
            if let digest, let scopes = declared.scopes {
                keys.append(.init(name: entry.key, digest: digest, scopes: scopes, user: user))
            }
        }
        return keys
    }

    private func decodeDevices(_ node: ConfigNode, into settings: inout ServiceSettings) {
        let reader = OptionReader(
            node, specs: DeviceKeys.specs, step: nil, what: "service.devices", diagnostics: diagnostics)
        let keys = DeviceKeys(reading: reader)
        if let prefixNode = keys.$identityTag.node {
            let prefix = keys.identityTag
            // A prefix keeps user tags apart from topic tags and from NH's `$UserId:`/`$InstallationId:` forms.
            if prefix.isEmpty || prefix.hasPrefix("$") || !prefix.hasSuffix(":") {
                reader.error(
                    "'identity-tag' must be a prefix ending in ':' that does not start with '$'", at: prefixNode,
                    hint: "e.g. username:")
            } else if let problem = TagSyntax.problem(with: prefix + "user") {
                reader.error(
                    "'identity-tag' does not make a valid tag: \(problem)", at: prefixNode, hint: "e.g. username:")
            } else {
                settings.identityTagPrefix = prefix
            }
        }
        if let pattern = keys.allowedTags, let patternNode = keys.$allowedTags.node {
            if let compiled = TagPattern(pattern) {
                settings.allowedTags = compiled
            } else {
                reader.error(
                    "'allowed-tags' is not a valid regular expression", at: patternNode,
                    hint: "e.g. (topic|lang)_[a-z0-9_]{1,40}")
            }
        }
        settings.maxTags = keys.maxTags
    }
}
