import HubWire
import PipelineCore
import RunStore

/// What a batch came to.
package struct BatchOutcome: Sendable {
    /// Items by outcome.
    package var counts = ItemCounts()
    /// The first notification ids (at most `BatchRunner.keptIds`); the journal has them all.
    package private(set) var notificationIds: [String] = []
    /// Every notification id the batch met, kept or not.
    package private(set) var notificationIdTotal = 0
    /// A uniform sample of every notification id the batch met (at most `BatchRunner.sampledIds`), for reading
    /// delivery outcomes of a large batch without reading them all.
    package private(set) var sampledNotificationIds: [String] = []
    /// Draws the sample; seeded, so a run's sample depends only on the order ids arrive in.
    private var sampler = SplitMix64(seed: 0x5EED_0F_0C_7C0E5)
    /// The TrackingIds of the first accepted requests (at most `BatchRunner.keptIds`).
    package private(set) var trackingIds: [String] = []
    /// Every accepted request's TrackingId, kept or not.
    package private(set) var trackingIdTotal = 0
    /// Failed and unknown items grouped by reason, biggest group first.
    package var failures: [FailureGroup] = []
    /// Dry runs: the first requests as they would be sent (signature redacted).
    package var dryRunLines: [String] = []
    /// The first requests' outcomes (at most `BatchRunner.keptIds`): request, status, TrackingId,
    /// attempts, timing, notification id, outcome and reason.
    package var requestReports: [ReportValue] = []
    /// Requests made (retries not counted).
    package var requests = 0
    /// Retries made.
    package var retries = 0
    /// `--again`: items sent although an earlier run had sent the same notification within the window.
    package var resent = 0
    /// True when a stop signal ended the batch before its last item.
    package var interrupted = false
    /// Why the batch stopped starting items before its source ended, if it did.
    package var stop: BatchStop?
    /// The first items' reports in row order (as many as the runner keeps; none by default).
    package var items: [BatchItemReport] = []
    /// The first failed or bad items' reports in row order (as many as the runner keeps).
    package var firstFailures: [BatchItemReport] = []

    /// Creates an empty outcome.
    package init() {}

    /// Notes a notification id an item came to (the first ones are kept).
    mutating func noteNotificationId(_ id: String?) {
        guard let id else { return }
        notificationIdTotal += 1
        if notificationIds.count < BatchRunner.keptIds { notificationIds.append(id) }
        // Reservoir sampling (Algorithm R): every id met so far is in the sample with the same chance.
        if sampledNotificationIds.count < BatchRunner.sampledIds {
            sampledNotificationIds.append(id)
        } else {
            let slot = Int(sampler.next() % UInt64(notificationIdTotal))
            if slot < BatchRunner.sampledIds { sampledNotificationIds[slot] = id }
        }
    }

    /// Notes an accepted request's TrackingId (the first ones are kept).
    mutating func noteTrackingId(_ id: String) {
        guard !id.isEmpty else { return }
        trackingIdTotal += 1
        if trackingIds.count < BatchRunner.keptIds { trackingIds.append(id) }
    }

    /// One reason and the items that met it.
    package struct FailureGroup: Sendable, Equatable {
        /// `failed`, `unknown`, `duplicate` or `bad`.
        package var state: ItemState
        /// The reason.
        package var reason: String
        /// Items with it.
        package var count: Int
        /// The first few items' origins and TrackingIds.
        package var examples: [String]
        /// What to do about it, when known.
        package var hint: String?
    }

    /// Structured detail for the report: counts, ids, failure groups.
    package var reportFields: [ReportField] {
        [
            ReportField(
                "items",
                .object([
                    ReportField("accepted", .int(counts.accepted)), ReportField("planned", .int(counts.planned)),
                    ReportField("failed", .int(counts.failed)), ReportField("unknown", .int(counts.unknown)),
                    ReportField("skipped", .int(counts.skipped)), ReportField("duplicates", .int(counts.duplicates)),
                    ReportField("bad", .int(counts.bad)), ReportField("otherShards", .int(counts.otherShards)),
                ])),
            ReportField("notificationIds", .array(notificationIds.map(ReportValue.string))),
            ReportField(
                "failures",
                .array(
                    failures.map { group in
                        .object([
                            ReportField("state", .string(group.state.rawValue)),
                            ReportField("reason", .string(group.reason)),
                            ReportField("count", .int(group.count)),
                            ReportField("examples", .array(group.examples.map(ReportValue.string))),
                        ])
                    })),
            ReportField("requests", .int(requests)), ReportField("retries", .int(retries)),
            ReportField("resent", .int(resent)),
        ]
    }
}

/// A small seeded generator (SplitMix64): the same seed gives the same numbers on every machine.
struct SplitMix64: Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
