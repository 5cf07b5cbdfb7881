import HubClient
import HubWire
import PipelineCore
import RunStore

/// What a `RateGovernor` shares with the other processes sending to its hub: the run store's pace, the hub's
/// key in it, and the budgets it draws from.
package struct SharedPacing: Sendable {
    /// The run store's pace.
    package var pace: any HubPace
    /// The hub, as the store knows it: its REST base URL (no secret in it).
    package var hub: String
    /// The budgets every request takes a slot of; empty for none (only pauses are shared).
    package var budgets: [PaceBudget]

    /// Creates a shared pacing.
    package init(pace: any HubPace, hub: String, budgets: [PaceBudget]) {
        self.pace = pace
        self.hub = hub
        self.budgets = budgets
    }

    /// The pacing of a batch step on `session`'s hub under `control`, or nil when the run shares none (no
    /// store). The hub's `rate:` is a budget of its own; the step's `rate:` is one when the run is a part of a
    /// sharded run (`paceScope`), so the parts together keep to it.
    static func forStep(_ stepIndex: Int, rate: Double?, session: HubSession, control: BatchControl) -> SharedPacing? {
        guard let pace = control.pace else { return nil }
        let hub = session.endpoint.hubBaseURL
        var budgets: [PaceBudget] = []
        if let hubRate = session.hub.rate { budgets.append(PaceBudget(key: "hub \(hub)", rate: hubRate)) }
        if let rate, let scope = control.paceScope {
            budgets.append(PaceBudget(key: "run \(scope) step \(stepIndex) \(hub)", rate: rate))
        }
        return SharedPacing(pace: pace, hub: hub, budgets: budgets)
    }
}
