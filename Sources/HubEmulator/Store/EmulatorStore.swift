import Foundation
import HubExpressions
import HubWire

/// All emulator state: installations, registrations, scheduled sends, telemetry and deliveries.
///
/// An actor, so concurrent requests never interleave inside an operation. Targets are indexed by
/// tag per hub, so fan-out never scans devices it cannot match.
actor EmulatorStore {
    let configuration: EmulatorConfiguration
    /// Most deliveries kept for the side channel; older ones are dropped first.
    let deliveryLimit: Int
    private let now: @Sendable () -> Date

    var hubs: [String: HubState] = [:]
    var indexes: [String: TargetIndex] = [:]
    /// Per hub, which installation part each installation registration id stands for (rebuilt from `hubs` on restore).
    var installationParts: [String: [String: InstallationPart]] = [:]
    /// A ring, so dropping the oldest once the limit is reached costs O(1) per delivery, not a shift of
    /// the whole log (which made every send at the limit copy 100,000 deliveries).
    var deliveries = BoundedLog<LoggedDelivery>()
    var telemetry: [String: NotificationRecord] = [:]
    /// Telemetry ids, oldest first: the newest `deliveryLimit` records are kept, so an emulator left up for a
    /// long rehearsal (or a benchmark) does not grow without bound.
    var telemetryOrder = BoundedLog<String>()
    /// Monotonic counter behind ids (registrations, notifications, scheduled sends).
    var sequence = 0
    /// Deliveries numbered so far (not saved: the delivery log lives in memory only).
    var deliverySequence = 0
    /// The 8-digit number NH puts in notification ids (one per emulator, as one per service node).
    let nodeNumber = Int.random(in: 10_000_000...99_999_999)
    /// True when `hubs` changed since the last snapshot was taken.
    private(set) var isDirty = false

    init(configuration: EmulatorConfiguration, deliveryLimit: Int, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.deliveryLimit = deliveryLimit
        self.now = now
        for hub in configuration.hubs {
            hubs[hub.name] = HubState()
            indexes[hub.name] = TargetIndex()
        }
    }

    /// The current time.
    var currentDate: Date { now() }

    /// Marks the persistent state as changed.
    func markDirty() { isDirty = true }

    /// The next value of the id counter.
    func nextSequence() -> Int {
        sequence += 1
        return sequence
    }

    /// The next delivery id: 1, 2, 3… with no gaps, apart from the sequence that numbers notification and
    /// registration ids, so `/_emulator/deliveries` reads as a count and `?since=ID` pages through it.
    func nextDeliveryId() -> Int {
        deliverySequence += 1
        return deliverySequence
    }

    /// The persistent state, clearing the dirty mark.
    func takeSnapshot() -> EmulatorSnapshot {
        isDirty = false
        return EmulatorSnapshot(hubs: hubs, sequence: sequence)
    }

    /// Restores state saved by `takeSnapshot`, rebuilding the tag indexes. Hubs no longer configured are dropped.
    func restore(_ snapshot: EmulatorSnapshot) throws(TargetError) {
        sequence = max(sequence, snapshot.sequence)
        for (name, state) in snapshot.hubs where hubs[name] != nil {
            hubs[name] = state
            restoreInstallationParts(hub: name)
            var index = TargetIndex()
            for installation in state.installations.values {
                var targets = try Target.targets(of: installation)
                if let record = hubs[name]?.installationRegistrations[installation.installationId] {
                    targets = targets.filter(record.keeps)
                }
                index.replace(owner: .installation(installation.installationId), with: targets)
            }
            for stored in state.registrations.values {
                guard let description = try? RegistrationDescription(parsing: stored.descriptionXML) else { continue }
                index.replace(
                    owner: .registration(stored.id), with: [try Target.target(of: description, id: stored.id)])
            }
            indexes[name] = index
        }
    }

    /// The recorded deliveries with an id above `since`, oldest first.
    func deliveries(since: Int?) -> [Delivery] {
        guard let since else { return deliveries.map(\.delivery) }
        return deliveries.lazy.filter { $0.id > since }.map(\.delivery)
    }

    /// Forgets all recorded deliveries (ids keep increasing).
    func clearDeliveries() { deliveries.removeAll() }

    /// Keeps a send's telemetry, dropping the oldest beyond the limit.
    func keepTelemetry(_ record: NotificationRecord) {
        if telemetry.updateValue(record, forKey: record.id) == nil { telemetryOrder.append(record.id) }
        while telemetryOrder.count > deliveryLimit { telemetry[telemetryOrder.removeFirst()] = nil }
    }

    /// Drops the oldest deliveries beyond the limit (senders append to `deliveries` directly).
    func dropOldDeliveries() {
        if deliveries.count > deliveryLimit { deliveries.removeFirst(deliveries.count - deliveryLimit) }
    }

    /// ISO 8601 in whole seconds, UTC (`2018-11-07T00:18:38Z`): how Atom entries and feeds are dated.
    func atomTimestamp() -> String {
        now().formatted(Date.ISO8601FormatStyle())
    }

    /// ISO 8601 with milliseconds in UTC.
    func timestamp(_ date: Date? = nil) -> String {
        (date ?? now()).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
