import HubEmulator
import HubWire
import PipelineConfig
import PipelineCore

/// Reads an emulator config file (YAML) into an `EmulatorConfiguration`, with the same
/// `file:line:column` diagnostics as pipelines.
struct EmulatorConfigDecoder {
    static let topLevel: [OptionSpec] = [
        OptionSpec("namespace", .string, default: "local", "audiences signed for https://<namespace>.servicebus.windows.net/ are valid"),
        OptionSpec("tier", .oneOf(EmulatorConfiguration.Tier.allCases.map(\.rawValue)), default: "standard",
                   "free | basic | standard (Location ids, scheduled sends and telemetry need standard)"),
        OptionSpec("hubs", .stringMap, required: true, "hub name → { policies: { name: { key, rights } } }"),
        OptionSpec("latency", .mapping(latencyKeys), "time added before answering, as a distant hub takes: { delay: 50ms, operations: [send] }"),
        OptionSpec("faults", .stringList, "faults to inject: { status, rate, retry-after, operations } or { drop-connection: true, rate }"),
        OptionSpec("clock-skew", .duration, default: "0s", "how far past expiry a token is still accepted"),
        OptionSpec("clock-offset", .string, default: "0s",
                   "how far the emulator's clock runs ahead of this machine's (-2h: behind), to rehearse clock skew"),
        OptionSpec("dead-channels", .stringList,
                   "devices whose channel the PNS refuses: { reason: expired | invalid, handles: [...] } or { reason, platform, share: 0.05 }"),
        OptionSpec("telemetry-delay", .string, default: "2s",
                   "how long a notification's telemetry stays Enqueued, then Processing, before its outcome is final (at most 60s)"),
    ]
    static let latencyKeys: [OptionSpec] = [
        OptionSpec("delay", .string, required: true, examples: ["50ms"], "time added before each answer: 50ms, 0.2s, at most 60s"),
        OptionSpec("operations", .stringList, "send, installation, registration (default: all)"),
    ]
    static let hubKeys = [OptionSpec("policies", .stringMap, required: true, "policy name → { key, rights }")]
    static let policyKeys = [
        OptionSpec("key", .string, required: true, "the key text (44 characters of base64 from the portal, or any text up to 256)"),
        OptionSpec("rights", .stringList, required: true, "Listen, Send, Manage (Manage implies the others)"),
    ]
    static let faultKeys = [
        OptionSpec("status", .integer, "HTTP status to answer with (400-599)"),
        OptionSpec("drop-connection", .boolean, "close the connection without answering (instead of status)"),
        OptionSpec("rate", .string, required: true, "fraction of matching requests, 0 to 1"),
        OptionSpec("retry-after", .integer, "Retry-After seconds sent with the status"),
        OptionSpec("operations", .stringList, "send, installation, registration (default: all)"),
    ]

    let diagnostics: DiagnosticCollector

    /// The configuration in `path`, or nil after reporting every problem.
    static func load(_ path: String, environment: [String: String], diagnostics: DiagnosticCollector) -> EmulatorConfiguration? {
        let loader = PipelineLoader(options: LoaderOptions(purpose: .run, environment: environment))
        guard let root = loader.loadDataFile(path: path, reference: nil, what: "emulator config", resolvingReferences: true,
                                             diagnostics: diagnostics)
        else { return nil }
        let configuration = EmulatorConfigDecoder(diagnostics: diagnostics).decode(root)
        return diagnostics.hasErrors ? nil : configuration
    }

    func decode(_ root: ConfigNode) -> EmulatorConfiguration? {
        let reader = OptionReader(root, specs: Self.topLevel, step: nil, what: "an emulator config", diagnostics: diagnostics)
        let namespace = reader.string("namespace")?.value ?? "local"
        let tier = reader.oneOf("tier", EmulatorConfiguration.Tier.allCases.map(\.rawValue)).flatMap(EmulatorConfiguration.Tier.init) ?? .standard
        let skew = reader.contains("clock-skew") ? reader.duration("clock-skew", in: 0...3600) ?? 0 : 0
        let offset = clockOffset(reader)
        var hubs: [EmulatorConfiguration.Hub] = []
        for entry in reader.node("hubs")?.entries ?? [] {
            if let problem = NHNames.hubNameProblem(entry.key) {
                diagnostics.error("hub '\(entry.key)': \(problem)", at: entry.keyLocation)
            }
            let hub = OptionReader(entry.value, specs: Self.hubKeys, step: nil, what: "hub '\(entry.key)'", diagnostics: diagnostics)
            let policies = (hub.node("policies")?.entries ?? []).compactMap(policy)
            if hub.node("policies") != nil, policies.isEmpty {
                diagnostics.error("hub '\(entry.key)' has no policies", at: entry.keyLocation,
                                  hint: "add DefaultFullSharedAccessSignature: { key: …, rights: [Listen, Manage, Send] }")
            }
            hubs.append(EmulatorConfiguration.Hub(name: entry.key, policies: policies))
        }
        if let node = reader.node("hubs"), node.entries == nil {
            reader.error("'hubs' must be a mapping of hub names, found \(node.kindName)", at: node)
        }
        let faults = (reader.node("faults")?.items ?? []).compactMap(fault)
        if let node = reader.node("faults"), node.items == nil {
            reader.error("'faults' must be a list, found \(node.kindName)", at: node)
        }
        let latency = reader.node("latency").flatMap(latencyRule)
        return EmulatorConfiguration(namespace: namespace, tier: tier, hubs: hubs, faults: faults, clockSkew: skew,
                                     clockOffset: offset, latency: latency, deadChannels: deadChannels(reader),
                                     telemetryDelay: telemetryDelay(reader))
    }

    /// `latency: { delay: 50ms, operations: [send] }`.
    private func latencyRule(_ node: ConfigNode) -> LatencyRule? {
        let reader = OptionReader(node, specs: Self.latencyKeys, step: nil, what: "latency", diagnostics: diagnostics)
        let operations = operations(reader)
        guard let (text, delayNode) = reader.string("delay") else { return nil }
        guard let delay = Self.shortDuration(text) else {
            reader.error("'delay' must be a duration up to 60s, such as 50ms or 0.2s, found \"\(text)\"", at: delayNode)
            return nil
        }
        return LatencyRule(delay: delay, operations: operations)
    }

    /// `50ms`, `0.2s`, `2s` → a duration of at most 60 s; nil otherwise.
    static func shortDuration(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let (number, scale): (Substring, Double) = trimmed.hasSuffix("ms") ? (trimmed.dropLast(2), 0.001)
            : trimmed.hasSuffix("s") ? (trimmed.dropLast(), 1) : ("", 0)
        guard let value = Double(number), value >= 0, value * scale <= 60, number.allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
        return .milliseconds(Int64((value * scale * 1000).rounded()))
    }

    /// `operations: [send, …]`, checked; empty for all.
    private func operations(_ reader: OptionReader) -> Set<FaultRule.Operation> {
        var operations: Set<FaultRule.Operation> = []
        for (name, opNode) in reader.stringList("operations") ?? [] {
            guard let operation = FaultRule.Operation(rawValue: name) else {
                reader.error("unknown operation '\(name)'\(Suggestion.didYouMean(name, in: FaultRule.Operation.allCases.map(\.rawValue)))",
                             at: opNode, hint: "operations: send, installation, registration")
                continue
            }
            operations.insert(operation)
        }
        return operations
    }

    /// `clock-offset`: a duration, negative when written with a leading `-`, at most 7 days either way.
    private func clockOffset(_ reader: OptionReader) -> Int64 {
        guard let (text, node) = reader.string("clock-offset") else { return 0 }
        guard let seconds = Self.signedDuration(text), abs(seconds) <= NHLimits.maxScheduleAheadSeconds else {
            reader.error("'clock-offset' must be a duration within 7 days either way, such as 2h or -90s, found \"\(text)\"", at: node)
            return 0
        }
        return seconds
    }

    /// `2h` → 7200, `-90s` → -90, `0` → 0; nil when not a duration.
    static func signedDuration(_ text: String) -> Int64? {
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
        let reader = OptionReader(entry.value, specs: Self.policyKeys, step: nil, what: what, diagnostics: diagnostics)
        let key = reader.string("key")
        if let (text, node) = key, text.isEmpty || text.count > NHNames.maxPolicyNameLength {
            reader.error("\(what): 'key' must be 1 to 256 characters", at: node)
        }
        var rights: Set<AccessRight> = []
        for (name, node) in reader.stringList("rights") ?? [] {
            guard let right = AccessRight.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                let names = AccessRight.allCases.map(\.rawValue)
                reader.error("\(what): unknown right '\(name)'\(Suggestion.didYouMean(name, in: names))", at: node, hint: "rights: Listen, Send, Manage")
                continue
            }
            rights.insert(right)
        }
        guard let key, !rights.isEmpty else { return nil }
        return AccessPolicy(name: entry.key, key: key.value, rights: rights)
    }

    private func fault(_ node: ConfigNode) -> FaultRule? {
        let reader = OptionReader(node, specs: Self.faultKeys, step: nil, what: "a fault", diagnostics: diagnostics)
        let status = reader.integer("status", in: 400...599)
        let drop = reader.bool("drop-connection") ?? false
        let retryAfter = reader.integer("retry-after", in: 0...3600)
        var rate: Double?
        if let (text, rateNode) = reader.string("rate") {
            rate = Double(text).flatMap { (0...1).contains($0) ? $0 : nil }
            if rate == nil { reader.error("'rate' must be a number from 0 to 1, found '\(text)'", at: rateNode) }
        }
        let operations = operations(reader)
        if drop == (status != nil) || (drop && retryAfter != nil) {
            reader.error("a fault needs either 'status' or 'drop-connection: true'", at: node,
                         hint: "e.g. { status: 429, rate: 0.1, retry-after: 1 } or { drop-connection: true, rate: 0.01 }")
            return nil
        }
        guard let rate else { return nil }
        let effect: FaultRule.Effect = drop ? .dropConnection : .status(status ?? 500, retryAfter: retryAfter)
        return FaultRule(effect: effect, rate: rate, operations: operations)
    }
}
