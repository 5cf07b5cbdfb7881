import HubEmulator
import HubWire
import PipelineConfig
import PipelineCore

extension EmulatorConfigDecoder {
    /// One `dead-channels` entry.
    struct DeadChannelKeys: DeclaredOptions {
        @Key(
            .choice(
                "reason", required: true,
                "expired (the app was uninstalled: ExpiredChannel) or invalid (the PNS does not know the handle: BadChannel)"
            ))
        var reason: DeadChannelRule.Reason?
        @Key(.stringList("handles", "these device handles, on any platform")) var handles:
            [(value: String, node: ConfigNode)]
        @Key(.choice("platform", "with share: the platform whose devices a share of are refused")) var platform:
            PushPlatform?
        @Key(
            .fraction(
                "share", "with platform: the fraction of its devices, picked by handle (the same ones every send)"))
        var share: Double?

        init() {}
    }

    /// `dead-channels: [{ reason, handles } | { reason, platform, share }]`.
    func deadChannels(_ node: ConfigNode?, _ reader: OptionReader) -> [DeadChannelRule] {
        guard let node else { return [] }
        guard let items = node.items else {
            reader.error("'dead-channels' must be a list, found \(node.kindName)", at: node)
            return []
        }
        return items.compactMap(deadChannelRule)
    }

    private func deadChannelRule(_ node: ConfigNode) -> DeadChannelRule? {
        let reader = OptionReader(
            node, specs: DeadChannelKeys.specs, step: nil, what: "a dead-channels entry", diagnostics: diagnostics)
        let keys = DeadChannelKeys(reading: reader)
        let hint = "e.g. { reason: expired, handles: [TOKEN] } or { reason: invalid, platform: fcmv1, share: 0.05 }"
        let hasHandles = keys.$handles.node != nil && !keys.$handles.isRefused
        let (hasPlatform, hasShare) = (reader.contains(keys.$platform.key), reader.contains(keys.$share.key))
        let wantsShare = hasPlatform || hasShare
        guard hasHandles != wantsShare, !wantsShare || (hasPlatform && hasShare) else {
            reader.error(
                "a dead-channels entry needs either 'handles' or both 'platform' and 'share'", at: node, hint: hint)
            return nil
        }
        guard let reason = keys.reason else { return nil }
        if hasHandles { return DeadChannelRule(reason: reason, selection: .handles(Set(keys.handles.map(\.value)))) }
        guard let platform = keys.platform, let share = keys.share else { return nil }
        return DeadChannelRule(reason: reason, selection: .share(platform, share))
    }
}

/// The kinds of key an emulator config reads besides the ready-made ones.
extension OptionKey where Value == Duration {
    /// A short duration (`50ms`, `0.2s`, `2s`) of at most 60 s.
    static func shortDuration(
        _ key: String, required: Bool = false, default defaultValue: Duration? = nil, examples: [String],
        _ summary: String
    ) -> OptionKey {
        let shown = defaultValue.map { "\($0.components.seconds)s" }
        return OptionKey(
            OptionSpec(
                key, .string, required: required, default: shown, examples: examples, summary + " (at most 60s)"),
            default: defaultValue
        ) { reader, node in
            guard let text = reader.string(key)?.value else { return nil }
            guard let delay = EmulatorConfigDecoder.shortDuration(text) else {
                reader.error(
                    "'\(key)' must be a duration up to 60s, such as \(examples.joined(separator: " or ")), found \"\(text)\"",
                    at: node)
                return nil
            }
            return delay
        }
    }
}

extension OptionKey where Value == Int64 {
    /// A duration that may be negative (`2h`, `-90s`), within `bound` seconds either way.
    static func signedDuration(_ key: String, within bound: Int64, _ summary: String) -> OptionKey {
        OptionKey(OptionSpec(key, .string, default: "0s", summary), default: 0) { reader, node in
            guard let text = reader.string(key)?.value else { return nil }
            guard let seconds = EmulatorConfigDecoder.signedDuration(text), abs(seconds) <= bound else {
                let days = bound % 86400 == 0 ? "\(bound / 86400) days" : ConfigDuration.format(bound)
                reader.error(
                    "'\(key)' must be a duration within \(days) either way, such as 2h or -90s, found \"\(text)\"",
                    at: node)
                return nil
            }
            return seconds
        }
    }
}

extension OptionKey where Value == Double {
    /// A fraction, 0 to 1.
    static func fraction(_ key: String, required: Bool = false, _ summary: String) -> OptionKey {
        OptionKey(OptionSpec(key, .string, required: required, summary + ", 0 to 1")) { reader, node in
            guard let text = reader.string(key)?.value else { return nil }
            guard let value = Double(text), (0...1).contains(value) else {
                reader.error("'\(key)' must be a number from 0 to 1, found '\(text)'", at: node)
                return nil
            }
            return value
        }
    }
}

extension OptionKey where Value == Set<FaultRule.Operation> {
    /// A list of hub operations (send, installation, registration); empty for all.
    static func operations(_ key: String, _ summary: String) -> OptionKey {
        OptionKey(OptionSpec(key, .stringList, summary), default: []) { reader, _ in
            var operations: Set<FaultRule.Operation> = []
            for (name, node) in reader.stringList(key) ?? [] {
                guard let operation = FaultRule.Operation(rawValue: name) else {
                    reader.error(
                        "unknown operation '\(name)'\(Suggestion.didYouMean(name, in: FaultRule.Operation.allCases.map(\.rawValue)))",
                        at: node, hint: "operations: send, installation, registration")
                    continue
                }
                operations.insert(operation)
            }
            return operations
        }
    }
}
