import HubEmulator
import HubWire
import PipelineConfig
import PipelineCore

extension EmulatorConfigDecoder {
    static let deadChannelKeys = [
        OptionSpec("reason", .oneOf(DeadChannelRule.Reason.allCases.map(\.rawValue)), required: true,
                   "expired (the app was uninstalled: ExpiredChannel) or invalid (the PNS does not know the handle: BadChannel)"),
        OptionSpec("handles", .stringList, "these device handles, on any platform"),
        OptionSpec("platform", .oneOf(PushPlatform.allCases.map(\.rawValue)), "with share: the platform whose devices a share of are refused"),
        OptionSpec("share", .string, "with platform: the fraction of its devices, 0 to 1, picked by handle (the same ones every send)"),
    ]

    /// `dead-channels: [{ reason, handles } | { reason, platform, share }]`.
    func deadChannels(_ reader: OptionReader) -> [DeadChannelRule] {
        if let node = reader.node("dead-channels"), node.items == nil {
            reader.error("'dead-channels' must be a list, found \(node.kindName)", at: node)
            return []
        }
        return (reader.node("dead-channels")?.items ?? []).compactMap(deadChannelRule)
    }

    private func deadChannelRule(_ node: ConfigNode) -> DeadChannelRule? {
        let reader = OptionReader(node, specs: Self.deadChannelKeys, step: nil, what: "a dead-channels entry", diagnostics: diagnostics)
        let reason = reader.oneOf("reason", DeadChannelRule.Reason.allCases.map(\.rawValue)).flatMap(DeadChannelRule.Reason.init)
        let handles = reader.stringList("handles")
        let platform = reader.oneOf("platform", PushPlatform.allCases.map(\.rawValue)).flatMap(PushPlatform.init(rawValue:))
        var share: Double?
        if let (text, shareNode) = reader.string("share") {
            share = Double(text).flatMap { (0...1).contains($0) ? $0 : nil }
            if share == nil { reader.error("'share' must be a number from 0 to 1, found '\(text)'", at: shareNode) }
        }
        let hint = "e.g. { reason: expired, handles: [TOKEN] } or { reason: invalid, platform: fcmv1, share: 0.05 }"
        let wantsShare = reader.contains("platform") || reader.contains("share")
        guard (handles != nil) != wantsShare, !wantsShare || (reader.contains("platform") && reader.contains("share")) else {
            reader.error("a dead-channels entry needs either 'handles' or both 'platform' and 'share'", at: node, hint: hint)
            return nil
        }
        guard let reason else { return nil }
        if let handles { return DeadChannelRule(reason: reason, selection: .handles(Set(handles.map(\.value)))) }
        guard let platform, let share else { return nil }
        return DeadChannelRule(reason: reason, selection: .share(platform, share))
    }

    /// `telemetry-delay: 2s`: 0 to 60 s.
    func telemetryDelay(_ reader: OptionReader) -> Double {
        guard let (text, node) = reader.string("telemetry-delay") else { return 2 }
        guard let delay = Self.shortDuration(text) else {
            reader.error("'telemetry-delay' must be a duration up to 60s, such as 2s or 500ms, found \"\(text)\"", at: node)
            return 2
        }
        return Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
    }
}
