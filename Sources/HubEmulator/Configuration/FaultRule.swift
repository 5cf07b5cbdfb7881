/// A fault to inject: answer a fraction of matching requests with an error, or drop the connection.
package struct FaultRule: Sendable, Equatable {
    /// Which requests a rule applies to.
    package enum Operation: String, Sendable, CaseIterable {
        /// `messages`, `messages/$batch`, `schedulednotifications`.
        case send
        /// `installations/…`.
        case installation
        /// `registrations`, `registrationIDs`, `tags/…/registrations`.
        case registration
    }

    /// What happens to a request the rule hits.
    package enum Effect: Sendable, Equatable {
        /// Answer with this HTTP status (and `Retry-After` when set).
        case status(Int, retryAfter: Int?)
        /// Close the connection without answering, after the request was received.
        case dropConnection
    }

    /// What happens.
    package var effect: Effect
    /// Fraction of matching requests hit, 0...1.
    package var rate: Double
    /// The operations it applies to (all when empty).
    package var operations: Set<Operation>

    /// Creates a rule.
    package init(effect: Effect, rate: Double, operations: Set<Operation> = []) {
        self.effect = effect
        self.rate = rate
        self.operations = operations
    }

    /// True when the rule applies to `operation`.
    func matches(_ operation: Operation) -> Bool {
        operations.isEmpty || operations.contains(operation)
    }
}
