import Foundation
import HubEmulator
import HubWire
import PipelineConfig
import PipelineCore

/// Reads an emulator config file (YAML) into an `EmulatorConfiguration`, with the same
/// `file:line:column` diagnostics as pipelines.
package struct EmulatorConfigDecoder {
    /// The keys of an emulator config, in the order they are read (a file written in this order is reported in
    /// file order). The sections' own keys are read with them.
    struct ConfigKeys: DeclaredOptions {
        @Key(
            .text(
                "namespace", default: "local",
                "audiences signed for https://<namespace>.servicebus.windows.net/ are valid")) var namespace: String
        @Key(
            .choice(
                "tier", default: EmulatorConfiguration.Tier.standard,
                "free | basic | standard (Location ids, scheduled sends and telemetry need standard)"))
        var tier: EmulatorConfiguration.Tier
        @Key(.duration("clock-skew", in: 0...3600, default: 0, "how far past expiry a token is still accepted"))
        var clockSkew: Int64
        @Key(
            .signedDuration(
                "clock-offset", within: NHLimits.maxScheduleAheadSeconds,
                "how far the emulator's clock runs ahead of this machine's (-2h: behind), to rehearse clock skew"))
        var clockOffset: Int64
        @Key(
            OptionKey(
                OptionSpec("hubs", .stringMap, required: true, "hub name → { policies: { name: { key, rights } } }")
            ) { reader, node in
                EmulatorConfigDecoder(diagnostics: reader.diagnostics).hubs(node, reader)
            })
        var hubs: [EmulatorConfiguration.Hub]?
        @Key(
            OptionKey(
                OptionSpec(
                    "faults", .stringList,
                    "faults to inject: { status, rate, retry-after, operations } or { drop-connection: true, rate }")
            ) {
                reader, node in EmulatorConfigDecoder(diagnostics: reader.diagnostics).faults(node, reader)
            })
        var faults: [FaultRule]?
        @Key(
            OptionKey(
                OptionSpec(
                    "latency", .mapping(LatencyKeys.specs),
                    "time added before answering, as a distant hub takes: { delay: 50ms, operations: [send] }")
            ) { reader, node in
                EmulatorConfigDecoder(diagnostics: reader.diagnostics).latencyRule(node)
            })
        var latency: LatencyRule?
        @Key(
            OptionKey(
                OptionSpec(
                    "dead-channels", .stringList,
                    "devices whose channel the PNS refuses: { reason: expired | invalid, handles: [...] } or { reason, platform, share: 0.05 }"
                )
            ) {
                reader, node in EmulatorConfigDecoder(diagnostics: reader.diagnostics).deadChannels(node, reader)
            })
        var deadChannels: [DeadChannelRule]?
        @Key(
            .shortDuration(
                "telemetry-delay", default: .seconds(2), examples: ["2s", "500ms"],
                "how long a notification's telemetry stays Enqueued, then Processing, before its outcome is final"))
        var telemetryDelay: Duration

        init() {}
    }

    /// `latency:`.
    struct LatencyKeys: DeclaredOptions {
        @Key(.shortDuration("delay", required: true, examples: ["50ms", "0.2s"], "time added before each answer"))
        var delay: Duration?
        @Key(.operations("operations", "send, installation, registration (default: all)")) var operations:
            Set<FaultRule.Operation>

        init() {}
    }

    /// One hub.
    struct HubKeys: DeclaredOptions {
        @Key(.node(OptionSpec("policies", .stringMap, required: true, "policy name → { key, rights }"))) var policies:
            ConfigNode?

        init() {}
    }

    /// One access policy of a hub.
    struct PolicyKeys: DeclaredOptions {
        @Key(
            .text(
                "key", required: true, "the key text (44 characters of base64 from the portal, or any text up to 256)"))
        var key: String?
        @Key(.stringList("rights", required: true, "Listen, Send, Manage (Manage implies the others)")) var rights:
            [(value: String, node: ConfigNode)]

        init() {}
    }

    /// One fault.
    struct FaultKeys: DeclaredOptions {
        @Key(.integer("status", in: 400...599, "HTTP status to answer with")) var status: Int?
        @Key(.flag("drop-connection", "close the connection without answering (instead of status)")) var dropConnection:
            Bool
        @Key(.fraction("rate", required: true, "fraction of matching requests")) var rate: Double?
        @Key(.integer("retry-after", in: 0...3600, "Retry-After seconds sent with the status")) var retryAfter: Int?
        @Key(.operations("operations", "send, installation, registration (default: all)")) var operations:
            Set<FaultRule.Operation>

        init() {}
    }

    static var topLevel: [OptionSpec] { ConfigKeys.specs }
    /// The keys of one `faults:` entry (the test file's schema shows them too).
    package static var faultSpecs: [OptionSpec] { FaultKeys.specs }
    /// The keys of `latency:`.
    package static var latencySpecs: [OptionSpec] { LatencyKeys.specs }

    let diagnostics: DiagnosticCollector

    /// A decoder reporting to `diagnostics`.
    package init(diagnostics: DiagnosticCollector) {
        self.diagnostics = diagnostics
    }

    /// The configuration in `path`, or nil after reporting every problem.
    package static func load(_ path: String, environment: [String: String], diagnostics: DiagnosticCollector)
        -> EmulatorConfiguration?
    {
        let loader = PipelineLoader(options: LoaderOptions(purpose: .run, environment: environment))
        guard
            let root = loader.loadDataFile(
                path: path, reference: nil, what: "emulator config", resolvingReferences: true,
                diagnostics: diagnostics)
        else { return nil }
        let configuration = EmulatorConfigDecoder(diagnostics: diagnostics).decode(root)
        return diagnostics.hasErrors ? nil : configuration
    }

    func decode(_ root: ConfigNode) -> EmulatorConfiguration? {
        let reader = OptionReader(
            root, specs: Self.topLevel, step: nil, what: "an emulator config", diagnostics: diagnostics)
        let keys = ConfigKeys(reading: reader)
        let delay = keys.telemetryDelay
        return EmulatorConfiguration(
            namespace: keys.namespace, tier: keys.tier, hubs: keys.hubs ?? [], faults: keys.faults ?? [],
            clockSkew: keys.clockSkew, clockOffset: keys.clockOffset, latency: keys.latency,
            deadChannels: keys.deadChannels ?? [],
            telemetryDelay: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
    }

    /// `hubs:`: each hub's policies.
    func hubs(_ node: ConfigNode, _ reader: OptionReader) -> [EmulatorConfiguration.Hub] {
        guard let entries = node.entries else {
            reader.error("'hubs' must be a mapping of hub names, found \(node.kindName)", at: node)
            return []
        }
        var hubs: [EmulatorConfiguration.Hub] = []
        for entry in entries {
            if let problem = NHNames.hubNameProblem(entry.key) {
                diagnostics.error("hub '\(entry.key)': \(problem)", at: entry.keyLocation)
            }
            let hub = HubKeys(
                reading: OptionReader(
                    entry.value, specs: HubKeys.specs, step: nil, what: "hub '\(entry.key)'", diagnostics: diagnostics))
            let policies = (hub.policies?.entries ?? []).compactMap(policy)
            if hub.policies != nil, policies.isEmpty {
                diagnostics.error(
                    "hub '\(entry.key)' has no policies", at: entry.keyLocation,
                    hint: "add DefaultFullSharedAccessSignature: { key: …, rights: [Listen, Manage, Send] }")
            }
            hubs.append(EmulatorConfiguration.Hub(name: entry.key, policies: policies))
        }
        return hubs
    }

    /// `faults:`: a list of rules.
    package func faults(_ node: ConfigNode, _ reader: OptionReader) -> [FaultRule] {
        guard let items = node.items else {
            reader.error("'faults' must be a list, found \(node.kindName)", at: node)
            return []
        }
        return items.compactMap(fault)
    }

    /// `latency: { delay: 50ms, operations: [send] }`.
    package func latencyRule(_ node: ConfigNode) -> LatencyRule? {
        let keys = LatencyKeys(
            reading: OptionReader(node, specs: LatencyKeys.specs, step: nil, what: "latency", diagnostics: diagnostics))
        guard let delay = keys.delay else { return nil }
        return LatencyRule(delay: delay, operations: keys.operations)
    }

    /// `50ms`, `0.2s`, `2s` → a duration of at most 60 s; nil otherwise.
    package static func shortDuration(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let (number, scale): (Substring, Double) =
            trimmed.hasSuffix("ms")
            ? (trimmed.dropLast(2), 0.001)
            : trimmed.hasSuffix("s") ? (trimmed.dropLast(), 1) : ("", 0)
        guard let value = Double(number), value >= 0, value * scale <= 60,
            number.allSatisfy({ $0.isNumber || $0 == "." })
        else { return nil }
        return .milliseconds(Int64((value * scale * 1000).rounded()))
    }

    /// `2h` → 7200, `-90s` → -90, `0` → 0; nil when not a duration.
    package static func signedDuration(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "0" { return 0 }
        if trimmed.hasPrefix("-") { return ConfigDuration.seconds(String(trimmed.dropFirst())).map { -$0 } }
        return ConfigDuration.seconds(trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed)
    }

    private func policy(_ entry: ConfigEntry) -> AccessPolicy? {
        let what = "policy '\(entry.key)'"
        if !NHNames.isPolicyName(entry.key) {
            diagnostics.error("\(what): policy names use letters, digits, '.', '-' and '_'", at: entry.keyLocation)
        }
        let reader = OptionReader(entry.value, specs: PolicyKeys.specs, step: nil, what: what, diagnostics: diagnostics)
        let keys = PolicyKeys(reading: reader)
        if let text = keys.key, let node = keys.$key.node, text.isEmpty || text.count > NHNames.maxPolicyNameLength {
            reader.error("\(what): 'key' must be 1 to 256 characters", at: node)
        }
        var rights: Set<AccessRight> = []
        for (name, node) in keys.rights {
            guard let right = AccessRight.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() })
            else {
                let names = AccessRight.allCases.map(\.rawValue)
                reader.error(
                    "\(what): unknown right '\(name)'\(Suggestion.didYouMean(name, in: names))", at: node,
                    hint: "rights: Listen, Send, Manage")
                continue
            }
            rights.insert(right)
        }
        guard let key = keys.key, !rights.isEmpty else { return nil }
        return AccessPolicy(name: entry.key, key: key, rights: rights)
    }

    private func fault(_ node: ConfigNode) -> FaultRule? {
        let reader = OptionReader(node, specs: FaultKeys.specs, step: nil, what: "a fault", diagnostics: diagnostics)
        let keys = FaultKeys(reading: reader)
        let (status, drop, retryAfter, rate, operations) = (
            keys.status, keys.dropConnection, keys.retryAfter, keys.rate, keys.operations
        )
        if drop == (status != nil) || (drop && retryAfter != nil) {
            reader.error(
                "a fault needs either 'status' or 'drop-connection: true'", at: node,
                hint: "e.g. { status: 429, rate: 0.1, retry-after: 1 } or { drop-connection: true, rate: 0.01 }")
            return nil
        }
        guard let rate else { return nil }
        let effect: FaultRule.Effect = drop ? .dropConnection : .status(status ?? 500, retryAfter: retryAfter)
        return FaultRule(effect: effect, rate: rate, operations: operations)
    }
}
