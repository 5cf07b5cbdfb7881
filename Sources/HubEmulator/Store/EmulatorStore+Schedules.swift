import Foundation

extension EmulatorStore {
    /// Keeps a send until `due` (epoch seconds); returns its scheduled-notification id.
    func schedule(_ notification: OutgoingNotification, due: Double, hub: String) -> String {
        let id = notificationIDs.scheduled(at: currentDate, sequence: nextSequence())
        hubs[hub]?.scheduled[id] = ScheduledSend(id: id, due: due, notification: notification)
        markDirty()
        return id
    }

    /// Cancels a scheduled send; 404 when there is none with that id (already sent or never made).
    func cancelScheduled(id: String, hub: String) throws(EmulatorError) {
        guard hubs[hub]?.scheduled.removeValue(forKey: id) != nil else {
            throw .notFound("The scheduled notification was not found.")
        }
        markDirty()
    }

    /// Sends every scheduled notification that is due, under its scheduled id. Returns how many.
    @discardableResult
    func sendDueNotifications() -> Int {
        let nowSeconds = currentDate.timeIntervalSince1970
        var sent = 0
        for hub in hubs.keys.sorted() {
            let due = (hubs[hub]?.scheduled.values ?? [:].values).filter { $0.due <= nowSeconds }.sorted {
                $0.due < $1.due
            }
            for scheduled in due {
                hubs[hub]?.scheduled[scheduled.id] = nil
                markDirty()
                // It was checked when scheduled; a send that no longer parses is dropped, as NH would abandon it.
                guard let prepared = try? PreparedSend(scheduled.notification) else { continue }
                _ = send(prepared, hub: hub, notificationId: scheduled.id)
                sent += 1
            }
        }
        return sent
    }
}
