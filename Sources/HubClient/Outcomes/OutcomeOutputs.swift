import PipelineCore

/// What reading the telemetry of a step's notifications found, as outputs (the `outcomes` step, and
/// `pushline runs outcomes` reading them again after the run).
public struct OutcomeOutputs: DeclaredOutputs {
    /// `outcome-state`.
    @Output(
        "outcome-state",
        "how far reading telemetry got: final, partial (the wait ended first), unavailable (no Standard tier, "
            + "no Manage right, the hub unreachable) or none (nothing was accepted)", traced: .span)
    public var state: String? = nil
    /// `delivered`.
    @Output(
        "delivered", "devices the PNS accepted the notifications for (Success), over the notifications read",
        traced: .span)
    public var delivered: Int? = nil
    /// `not-delivered`.
    @Output(
        "not-delivered", "devices not reached, for any reason (dead channels, credentials, payload, throttling)",
        traced: .span)
    public var notDelivered: Int? = nil
    /// `dead-channels`.
    @Output("dead-channels", "devices whose channel the PNS called dead (ExpiredChannel, BadChannel, …)", traced: .span)
    public var deadChannels: Int? = nil
    /// `outcome-counts`.
    @Output("outcome-counts", "per-platform counts as `platform outcome count` (e.g. `fcmv1 Success 9200`)")
    public var outcomeCounts: [String]? = nil

    /// Not read: no outputs.
    public init() {}

    /// What `outcomes` found.
    package mutating func read(_ outcomes: DeliveryOutcomes) {
        state = outcomes.state.rawValue
        delivered = outcomes.delivered
        notDelivered = outcomes.notDelivered
        deadChannels = outcomes.deadChannels
        outcomeCounts = outcomes.countLines
    }
}
