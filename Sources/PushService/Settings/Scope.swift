/// What a caller may do: device users `register`, senders `send`, operators `admin` (pipeline runs, reports).
public enum Scope: String, Sendable, CaseIterable, Comparable {
    /// Create, update and delete the caller's own device registrations.
    case register
    /// Send notifications (to users, as the service file allows).
    case send
    /// Trigger pipelines and read run reports.
    case admin

    public static func < (lhs: Scope, rhs: Scope) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
