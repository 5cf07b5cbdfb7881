/// Time added before the emulator answers matching requests, so operators (and benchmarks) can rehearse a hub
/// that is far away: a real NH send takes tens of milliseconds, loopback takes microseconds.
package struct LatencyRule: Sendable, Equatable {
    /// How long each matching request waits before it is handled.
    package var delay: Duration
    /// The operations it applies to (all when empty).
    package var operations: Set<FaultRule.Operation>

    /// Creates a rule.
    package init(delay: Duration, operations: Set<FaultRule.Operation> = []) {
        self.delay = delay
        self.operations = operations
    }

    /// True when the rule applies to `operation`.
    func matches(_ operation: FaultRule.Operation) -> Bool {
        operations.isEmpty || operations.contains(operation)
    }
}
