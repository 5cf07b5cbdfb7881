/// What the emulator delivered, and each notification's telemetry: the side channel's log and what
/// `GET messages/{id}` reads, each holding the newest `limit` (oldest dropped first, so an emulator left up for a long
/// rehearsal or a benchmark does not grow without bound).
struct DeliveryRecords {
    /// Most deliveries, and most notifications' telemetry, kept.
    let limit: Int
    /// A ring, so dropping the oldest once the limit is reached costs O(1) per delivery, not a shift of the whole log
    /// (which made every send at the limit copy 100,000 deliveries).
    private var log = BoundedLog<LoggedDelivery>()
    private var telemetry: [String: NotificationRecord] = [:]
    /// Telemetry ids, oldest first.
    private var telemetryOrder = BoundedLog<String>()
    /// Deliveries numbered so far (the log lives in memory only, so the numbering is not saved).
    private var sequence = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// Makes room for `count` more deliveries at once: a thousand-device send goes straight into the log.
    mutating func reserve(_ count: Int) {
        log.reserveCapacity(log.count + count)
    }

    /// Logs one delivery under the next id: 1, 2, 3… with no gaps, apart from the sequence that numbers notification
    /// and registration ids, so `/_emulator/deliveries` reads as a count and `?since=ID` pages through it.
    mutating func deliver(
        _ send: LoggedDelivery.Send, to recipient: LoggedDelivery.Recipient, payload: String,
        renderedHeaders: [String: String]? = nil
    ) {
        sequence += 1
        log.append(
            LoggedDelivery(
                id: sequence, send: send, recipient: recipient, payload: payload, renderedHeaders: renderedHeaders))
    }

    /// Ends a send: keeps its telemetry and drops the oldest deliveries and telemetry beyond the limit.
    mutating func finish(_ record: NotificationRecord) {
        if log.count > limit { log.removeFirst(log.count - limit) }
        if telemetry.updateValue(record, forKey: record.id) == nil { telemetryOrder.append(record.id) }
        while telemetryOrder.count > limit { telemetry[telemetryOrder.removeFirst()] = nil }
    }

    /// The deliveries with an id above `since`, oldest first.
    func deliveries(since: Int?) -> [Delivery] {
        guard let since else { return log.map(\.delivery) }
        return log.lazy.filter { $0.id > since }.map(\.delivery)
    }

    /// Forgets every delivery (ids keep increasing).
    mutating func clear() { log.removeAll() }

    /// Telemetry for a notification id.
    func record(id: String) -> NotificationRecord? { telemetry[id] }
}
