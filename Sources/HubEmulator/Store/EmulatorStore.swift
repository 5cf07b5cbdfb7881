import Foundation
import HubExpressions
import HubWire

/// All emulator state: installations, registrations, scheduled sends, telemetry and deliveries.
///
/// An actor, so concurrent requests never interleave inside an operation. Targets are indexed by
/// tag per hub, so fan-out never scans devices it cannot match.
actor EmulatorStore {
    let configuration: EmulatorConfiguration
    private let now: @Sendable () -> Date

    var hubs: [String: HubState] = [:]
    var indexes: [String: TargetIndex] = [:]
    /// Per hub, which installation part each installation registration id stands for (rebuilt from `hubs` on restore).
    var installationParts: [String: [String: InstallationPart]] = [:]
    /// What was delivered, and each notification's telemetry.
    var records: DeliveryRecords
    /// Monotonic counter behind ids (registrations, notifications, scheduled sends).
    var sequence = 0
    /// Makes notification ids.
    let notificationIDs = NotificationIDs()
    /// True when `hubs` changed since the last snapshot was taken.
    private(set) var isDirty = false

    init(configuration: EmulatorConfiguration, deliveryLimit: Int, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        records = DeliveryRecords(limit: deliveryLimit)
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
            indexes[name] = try TargetIndex(indexing: state)
        }
    }

    /// The recorded deliveries with an id above `since`, oldest first.
    func deliveries(since: Int?) -> [Delivery] { records.deliveries(since: since) }

    /// Forgets all recorded deliveries (ids keep increasing).
    func clearDeliveries() { records.clear() }

    /// ISO 8601 in whole seconds, UTC (`2018-11-07T00:18:38Z`): how Atom entries and feeds are dated.
    func atomTimestamp() -> String {
        now().formatted(Date.ISO8601FormatStyle())
    }

    /// ISO 8601 with milliseconds in UTC.
    func timestamp(_ date: Date? = nil) -> String {
        (date ?? now()).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
