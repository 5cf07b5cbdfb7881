import BatchEngine
import HubClient
import PipelineCore

/// What `send` hands to later steps: the item counts and the ids NH gave (an `outcomes` step reads what became of
/// them).
package struct SendOutputs: DeclaredOutputs {
    /// `accepted`, `failed`, … `total`.
    package var counts = ItemCounts()
    /// `notification-ids`.
    @Output(
        "notification-ids",
        "the ids of the notifications sent (a scheduled send's are the ids a later `cancel` step cancels)",
        traced: .attribute("nh.notification.ids", count: "nh.notification.count"))
    package var notificationIds = OutputList()
    /// `tracking-ids`.
    @Output("tracking-ids", "the TrackingIds of the accepted requests, for Azure support") package var trackingIds =
        OutputList()

    /// Nothing sent.
    package init() {}

    /// `counts`, with the ids the hub gave.
    init(_ counts: ItemCounts, ids: OutputList = OutputList(), tracking: OutputList = OutputList()) {
        self.counts = counts
        notificationIds = ids
        trackingIds = tracking
    }

    /// What a batch of requests did.
    init(_ batch: BatchOutcome) {
        self.init(
            batch.counts, ids: OutputList(batch.notificationIds, total: batch.notificationIdTotal),
            tracking: OutputList(batch.trackingIds, total: batch.trackingIdTotal))
    }
}
