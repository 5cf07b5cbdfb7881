import PipelineCore

/// The keys of `cancel`, each declared once, with the shared retry group.
package struct CancelOptions: DeclaredOptions {
    /// `hub`.
    @Key(.hub("the declared hub the notifications were scheduled on")) package var hub: HubDeclaration?
    /// `notification-ids`.
    @Key(
        .stringList(
            "notification-ids",
            examples: ["${steps.reminder.notification-ids}", "\"7138412281836466052-3339543437946614470-1\""],
            "the ids of the scheduled notifications to cancel, as a scheduled send reported them: one id, a list, or an earlier send's `notification-ids`"
        ))
    package var notificationIds: [(value: String, node: ConfigNode)]
    /// `retries`, `retry-delay`, `retry-max-delay`.
    @KeyGroup package var retry: RetryKeys

    /// Every key at its default.
    package init() {}

    /// Every id is one NH could have given: no spaces and nothing that would change the request's path.
    package func check(_ reader: OptionReader) {
        if !$notificationIds.isRefused, let node = $notificationIds.node, notificationIds.isEmpty {
            reader.error(
                "'\($notificationIds.key)' lists no ids", at: node, hint: "give the ids a scheduled send reported")
        }
        for (id, node) in notificationIds
        where id.isEmpty || id.contains(where: { $0.isWhitespace || "/?#%".contains($0) }) {
            reader.error(
                "'\($notificationIds.key)' must hold the notification ids a scheduled send reported, found \(node.scalar?.quoted ?? "")",
                at: node,
                hint: "ids look like 7138412281836466052-3339543437946614470-1 (the report's notificationIds)")
        }
    }
}
