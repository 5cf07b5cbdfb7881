import HubWire
import PipelineCore

extension DeliveryOutcomes {
    /// As the JSON report writes it.
    package var report: ReportValue {
        var fields = [ReportField("state", .string(state.rawValue))]
        if let reason { fields.append(ReportField("reason", .string(reason))) }
        fields += [
            ReportField("read", .int(read)), ReportField("of", .int(of)), ReportField("final", .int(final)),
            ReportField("noTargetFound", .int(noTarget)),
            ReportField(
                "platforms",
                .object(
                    counts.sorted { $0.key < $1.key }.map { platform, outcomes in
                        ReportField(
                            platform,
                            .object(outcomes.sorted { $0.key < $1.key }.map { ReportField($0.key, .int($0.value)) }))
                    })),
            ReportField(
                "totals",
                .object(
                    PnsOutcome.Kind.allCases.compactMap { kind in
                        totals[kind].map { ReportField(kind.rawValue, .int($0)) }
                    })),
        ]
        return .object(fields)
    }

    /// Lines for the text report: what was read, the counts per platform, and why the reading stopped short.
    package var lines: [String] {
        var lines: [String] = []
        let sample =
            read < of ? "a sample of \(read) of \(of) notifications" : "\(read) notification\(read == 1 ? "" : "s")"
        switch state {
        case .none:
            return ["outcomes: nothing to read (no notification was accepted)"]
        case .unavailable:
            lines.append("outcomes unavailable: \(reason ?? "the hub keeps no telemetry")")
            if final == 0 { return lines }
        case .partial:
            lines.append("outcomes so far (\(sample) read, \(final) final): \(reason ?? "the wait ended")")
        case .final:
            lines.append("outcomes (\(sample) read, all final):")
        }
        for (platform, outcomes) in counts.sorted(by: { $0.key < $1.key }) {
            let known = PushPlatform(rawValue: platform)
            let ordered = outcomes.sorted { lhs, rhs in
                let (a, b) = (
                    PnsOutcome.kind(of: lhs.key, on: known) == .delivered,
                    PnsOutcome.kind(of: rhs.key, on: known) == .delivered
                )
                return a != b ? a : lhs.value != rhs.value ? lhs.value > rhs.value : lhs.key < rhs.key
            }
            let text = ordered.map { name, count in
                let kind = PnsOutcome.kind(of: name, on: known)
                return kind == .delivered ? "\(count) \(name)" : "\(count) \(name) (\(kind.rawValue))"
            }
            lines.append("  \(known?.displayName ?? platform): \(text.joined(separator: ", "))")
        }
        if noTarget > 0 {
            lines.append("  \(noTarget) notification\(noTarget == 1 ? "" : "s") matched no device (NoTargetFound)")
        }
        if state == .final || state == .partial, !counts.isEmpty {
            lines.append(
                "  in all: \(delivered) delivered, \(notDelivered) not"
                    + (deadChannels > 0 ? " (\(deadChannels) to dead channels)" : ""))
        }
        return lines
    }

    /// The warning a run whose notifications reached no device ends with.
    package var reachedNoDeviceWarning: String {
        "warning: the hub accepted \(of) notification\(of == 1 ? "" : "s"), but telemetry shows none reached a device"
            + (noTarget == read
                ? " (none matched a device)" : deadChannels > 0 ? " (\(deadChannels) dead channels)" : "")
    }
}
