import Foundation
import HubWire
import PipelineCore

/// Reads NH's per-message telemetry for notifications a step sent, asking again with backoff (`TelemetryPoll`) until
/// each is final or the wait ends. A hub that keeps no telemetry, a key without Manage, or a hub that cannot be reached
/// ends the reading as `unavailable`: the notifications were sent already, so none of that fails the step.
package struct OutcomeCollector: Sendable {
    /// The hub the notifications went through.
    package let session: HubSession
    /// Sleeps for that many seconds (the default; a step's tests replace it).
    package static let sleepForReal: @Sendable (Double) async throws -> Void = {
        try await Task.sleep(for: .seconds($0))
    }

    /// Waits that many seconds (tests pass one that returns at once).
    package let sleep: @Sendable (Double) async throws -> Void

    /// A collector that sleeps for real.
    package init(
        session: HubSession, sleep: @escaping @Sendable (Double) async throws -> Void = OutcomeCollector.sleepForReal
    ) {
        self.session = session
        self.sleep = sleep
    }

    /// The outcomes of `ids` (already a sample of `total`): each is read once, then those not final are read again until
    /// they are or `wait` seconds have passed (a read under way when the wait ends is the last). `stopped` ends the
    /// reading early (a stop signal): what was read is kept.
    package func collect(_ ids: [String], of total: Int, wait: Double, stopped: @Sendable () -> Bool = { false }) async
        -> DeliveryOutcomes
    {
        guard !ids.isEmpty else { return DeliveryOutcomes(state: .none, of: total) }
        var outcomes = DeliveryOutcomes(state: .final, read: ids.count, of: total)
        var pending = ids
        var missing = 0
        // The wait is measured by the monotonic clock and by the sleeps themselves, whichever says more: a machine
        // that stood still does not stretch it, and a sleep that returns early (tests) still uses it up.
        let started = ContinuousClock.now
        var slept = 0.0
        var poll = TelemetryPoll()
        func spent() -> Double {
            let elapsed = ContinuousClock.now - started
            return max(slept, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        var firstPass = true
        while true {
            var still: [String] = []
            missing = 0
            for (position, id) in pending.enumerated() {
                // Every notification is read once; after that the wait bounds the reading, not only the pauses, so a
                // large sample over a slow hub stops when the wait is up.
                if stopped() || (!firstPass && position > 0 && spent() >= wait) {
                    still += pending[position...]
                    break
                }
                let request = HubRequests.notificationDetails(id: id, at: session.endpoint)
                let result: TransportResult
                do {
                    result = try await session.perform(request, accepting: [403, 404])
                } catch {
                    return unavailable(outcomes, "the hub could not be asked: \(error.message)")
                }
                switch result.response.status {
                case 403:
                    return unavailable(outcomes, Self.refusal(result.response, hub: session.hub.name))
                case 404:
                    // NH takes a while to have telemetry for a new id (up to 30 minutes, the reference says).
                    missing += 1
                    still.append(id)
                default:
                    guard let details = try? NotificationDetails(parsing: result.response.bodyText) else {
                        return unavailable(
                            outcomes, "hub '\(session.hub.name)' answered telemetry Pushline cannot read")
                    }
                    if details.state.isFinal { outcomes.add(details) } else { still.append(id) }
                }
            }
            pending = still
            firstPass = false
            guard !pending.isEmpty else { return outcomes }
            if stopped() { break }
            guard
                let delay = poll.nextDelay(
                    now: Date(timeIntervalSince1970: spent()), deadline: Date(timeIntervalSince1970: wait))
            else { break }
            do { try await sleep(delay) } catch { break }
            slept += delay
        }
        outcomes.state = .partial
        if stopped() {
            outcomes.reason =
                "a stop signal ended the reading: \(pending.count) of \(ids.count) notifications not final yet; "
                + "`pushline runs outcomes` reads them again later"
            return outcomes
        }
        let parts = [(pending.count - missing, "still processing"), (missing, "with no telemetry yet")].filter {
            $0.0 > 0
        }
        outcomes.reason =
            "after the wait, \(pending.count) of \(ids.count) notifications were not final ("
            + parts.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
            + "); `pushline runs outcomes` reads them again later"
        return outcomes
    }

    private func unavailable(_ outcomes: DeliveryOutcomes, _ reason: String) -> DeliveryOutcomes {
        var outcomes = outcomes
        outcomes.state = .unavailable
        outcomes.reason = reason
        return outcomes
    }

    /// Why a 403 came: below Standard NH names the SKU; an empty 403 is a key without Manage.
    package static func refusal(_ response: HubResponse, hub: String) -> String {
        if response.refusesForTier {
            return "hub '\(hub)' keeps no per-message telemetry: that needs the Standard tier"
        }
        return "the key for hub '\(hub)' cannot read telemetry: that needs the Manage right"
    }

    /// Up to `size` of `ids`, spread evenly over them (the first, and then every n-th), so a sample of a large batch
    /// covers its start, middle and end.
    package static func sample(_ ids: [String], size: Int) -> [String] {
        NotificationSample.picks(of: ids.count, size: size).map { ids[$0] }
    }
}
