import HubClient
import HubWire
import PipelineCore
import RunStore

/// `cancel`: cancels scheduled notifications by the ids a scheduled send reported (written out, or handed on by
/// the send's `notification-ids`).
package struct CancelStep: DeclaredStep {
    /// The YAML key of this step.
    package static let id = "cancel"
    /// One line for docs.
    package static let summary = "Cancels scheduled notifications by the ids a scheduled send reported."

    /// What `cancel` hands to later steps.
    package struct Outputs: DeclaredOutputs {
        /// `cancelled`.
        @Output("cancelled", "how many scheduled notifications were cancelled (a dry run: 0)", traced: .span) package
            var cancelled = 0
        /// `notification-ids`.
        @Output(
            "notification-ids", "the ids of the notifications cancelled",
            traced: .attribute("nh.notification.ids", count: "nh.notification.count"))
        package var notificationIds: [String] = []
        /// `tracking-ids`.
        @Output("tracking-ids", "the TrackingIds of the cancelling requests, for Azure support") package
            var trackingIds: [String] = []

        /// Nothing cancelled.
        package init() {}
    }

    /// Examples as they appear under `steps:`.
    package static let examples = [
        "- cancel: { hub: sports, notification-ids: \"7138412281836466052-3339543437946614470-1\" }",
        "- cancel: { hub: sports, notification-ids: [ \"7138412281836466052-3339543437946614470-1\", \"7138412281836466052-3339543437946614470-2\" ] }",
    ]

    /// `send: { cancel: ID }`, the spelling before `cancel` was a step.
    package static let formerSpellings = [
        StepMigration(kind: "send", key: "cancel", newKind: id, renamed: ["cancel": "notification-ids"])
    ]

    /// The hub the notifications were scheduled on.
    let hub: HubDeclaration
    /// The ids to cancel, in the order given, each once.
    let notificationIds: [String]
    /// How each request retries.
    let policy: RetryPolicy

    /// Checks the hub; the ids were checked by their declaration.
    package static func build(_ options: CancelOptions, reporting reader: OptionReader, in context: BuildContext)
        -> CancelStep?
    {
        guard let hub = options.hub else { return nil }
        var seen: Set<String> = []
        let ids = options.notificationIds.map(\.value).filter { seen.insert($0).inserted }
        return CancelStep(hub: hub, notificationIds: ids, policy: options.retry.policy())
    }

    /// A cancel needs the Send right.
    package var access: [HubAccess] { [HubAccess(hub: hub, right: .send, purpose: "cancel a scheduled send")] }

    /// Cancels every id, one request each. An id the hub does not hold (sent or cancelled already, or never
    /// scheduled) fails the step once every other id was tried, so one stale id does not leave the rest going out.
    package func run(in context: StepContext) async throws -> StepResult {
        // One request per id outside the journal: in a sharded run, part 0 makes them, so N parts do not cancel N
        // times (a second cancel would find nothing and fail its part).
        if let shard = context.batch.shard, shard.index != 0 {
            var result = StepResult(
                summary:
                    "cancelling \(described) on hub '\(hub.name)' is left to part 0/\(shard.count); this is part \(shard)",
                data: .object([
                    ReportField("hub", .string(hub.name)), ReportField("leftToShard", .string("0/\(shard.count)")),
                ]))
            result.handOn(Outputs())
            return result
        }
        let session = try context.session(for: hub).with(policy: policy)
        var cancelled: [String] = []
        var tracking: [String] = []
        var missing: [String] = []
        var lines: [String] = []
        var requests: [ReportValue] = []
        for id in notificationIds {
            let request = HubRequests.cancelScheduled(id: id, at: session.endpoint)
            let result = try await session.perform(request, accepting: [404])
            if context.isDryRun { lines += request.dryRunLines(redactedAuthorization: session.redactedAuthorization) }
            if result.response.status == 404 {
                missing.append(id)
                continue
            }
            cancelled.append(id)
            if !context.isDryRun { tracking.append(result.trackingId) }
            requests.append(
                .object([
                    ReportField("cancelled", .string(id)), ReportField("trackingId", .string(result.trackingId)),
                    ReportField("attempts", .int(result.attempts)),
                ]))
        }
        if !missing.isEmpty {
            let done =
                cancelled.isEmpty
                ? "" : " (\(cancelled.count) other\(cancelled.count == 1 ? " was" : "s were") cancelled)"
            throw StepFailure(
                "hub '\(hub.name)' has no scheduled notification \(missing.map { "'\($0)'" }.joined(separator: ", ")): "
                    + "it was sent or cancelled already, or the id is wrong\(done)",
                hint: "the id is one of the notificationIds a scheduled send reported"
            ).coded(.hubRefused)
        }
        let summary =
            context.isDryRun
            ? "would cancel \(described) on hub '\(hub.name)' (nothing sent)"
            : "cancelled \(described) on hub '\(hub.name)'"
        var result = StepResult(
            summary: summary, lines: lines,
            data: .object([
                ReportField("hub", .string(hub.name)),
                ReportField("cancelled", .array(cancelled.map(ReportValue.string))),
                ReportField("requests", .array(requests)),
            ]))
        var outputs = Outputs()
        outputs.notificationIds = context.isDryRun ? [] : cancelled
        outputs.cancelled = outputs.notificationIds.count
        outputs.trackingIds = tracking
        result.handOn(outputs)
        return result
    }

    /// "scheduled notification 'ID'", or "3 scheduled notifications".
    private var described: String {
        notificationIds.count == 1
            ? "scheduled notification '\(notificationIds[0])'" : "\(notificationIds.count) scheduled notifications"
    }
}
