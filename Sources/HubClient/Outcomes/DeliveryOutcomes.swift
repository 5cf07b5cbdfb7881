import HubWire
import PipelineCore

/// What NH's telemetry says became of a set of notifications the hub accepted: how many were read, how many were
/// final, and the per-platform outcome counts summed over them. Built by `OutcomeCollector`; a `send` step with
/// `outcomes:` puts it in its outputs and the report, and `pushline runs outcomes` reads it again after a run.
package struct DeliveryOutcomes: Sendable, Equatable {
    /// How far the reading got.
    package enum State: String, Sendable, Equatable {
        /// Every notification read had a final state.
        case final
        /// The wait ended before every notification was final (or had telemetry); the counts are those so far.
        case partial
        /// The hub keeps no telemetry (Free or Basic tier), the key lacks Manage, or the hub could not be asked.
        case unavailable
        /// Nothing to read: no notification was accepted (a dry run, or every row already sent elsewhere).
        case none
    }

    /// How far the reading got.
    package var state: State
    /// Why the state is `partial` or `unavailable`, for people.
    package var reason: String?
    /// Notifications read (the sample).
    package var read: Int
    /// Notifications the step had; more than `read` when a sample was taken.
    package var of: Int
    /// Notifications whose state was final.
    package var final: Int
    /// Notifications that matched no device (`NoTargetFound`).
    package var noTarget: Int
    /// Final notifications that came with no outcome counts at all (and matched devices): NH said nothing about them.
    package var withoutCounts: Int
    /// Outcome counts by platform (`apns`, or NH's prefix for one this version does not know) and outcome name.
    package var counts: [String: [String: Int]]

    /// An empty reading in `state`.
    package init(state: State, reason: String? = nil, read: Int = 0, of: Int = 0) {
        self.state = state
        self.reason = reason
        self.read = read
        self.of = of
        final = 0
        noTarget = 0
        withoutCounts = 0
        counts = [:]
    }

    /// Adds one notification's final details.
    package mutating func add(_ details: NotificationDetails) {
        final += 1
        if details.state == .noTargetFound {
            noTarget += 1
        } else if details.outcomeCounts.isEmpty {
            withoutCounts += 1
        }
        for platform in details.platformOutcomes {
            let name = platform.platform?.rawValue ?? platform.prefix
            for count in platform.counts { counts[name, default: [:]][count.name, default: 0] += count.count }
        }
    }

    /// Device counts by kind, over every platform.
    package var totals: [PnsOutcome.Kind: Int] {
        var totals: [PnsOutcome.Kind: Int] = [:]
        for (platform, outcomes) in counts {
            for (name, count) in outcomes {
                totals[PnsOutcome.kind(of: name, on: PushPlatform(rawValue: platform)), default: 0] += count
            }
        }
        return totals
    }

    /// Devices the PNS accepted.
    package var delivered: Int { totals[.delivered] ?? 0 }
    /// Devices not reached, for whatever reason.
    package var notDelivered: Int { totals.filter { $0.key != .delivered }.values.reduce(0, +) }
    /// Devices whose channel is dead.
    package var deadChannels: Int { totals[.deadChannel] ?? 0 }

    /// True when every notification read is final and what NH said about each shows none reached a device: the hub
    /// accepted them, but nothing arrived anywhere (all channels dead, every device on a retired platform, no device
    /// matched). A final notification without counts says nothing, so it never counts as reaching no one.
    package var reachedNoDevice: Bool {
        state == .final && read > 0 && delivered == 0 && withoutCounts == 0 && notDelivered + noTarget > 0
    }

    /// `platform outcome count` lines (`fcmv1 Success 9200`), sorted, as the `outcome-counts` output holds them.
    package var countLines: [String] {
        counts.sorted { $0.key < $1.key }.flatMap { platform, outcomes in
            outcomes.sorted { $0.key < $1.key }.map { "\(platform) \($0.key) \($0.value)" }
        }
    }
}
