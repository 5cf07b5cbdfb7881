/// One item's outcome as a report lists it, in the same shape for every batch step.
public struct BatchItemReport: Sendable, Equatable {
    /// The item's row (1-based) in the step.
    public var row: Int
    /// What the report calls it: the installation id, registration handle or id, or `file:line`.
    public var label: String
    /// What happened: the job's word for an accepted item (`created`, `updated`, `deleted`), `accepted` or
    /// `planned` for a single request, else `skipped`, `duplicate`, `bad`, `failed` or `unknown`.
    public var outcome: String
    /// The id the item made or used (a registration id, a notification id).
    public var id: String?
    /// Why it was not accepted, naming its `file:line` when it came from a file.
    public var reason: String?
    /// True for `failed` and `bad`.
    public var isFailure: Bool { outcome == "failed" || outcome == "bad" }

    /// Creates a report.
    public init(row: Int, label: String, outcome: String, id: String? = nil, reason: String? = nil) {
        self.row = row
        self.label = label
        self.outcome = outcome
        self.id = id
        self.reason = reason
    }
}
