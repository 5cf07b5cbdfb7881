/// One item's outcome as a report lists it, in the same shape for every batch step.
package struct BatchItemReport: Sendable, Equatable {
    /// The item's row (1-based) in the step.
    package var row: Int
    /// What the report calls it: the installation id, registration handle or id, or `file:line`.
    package var label: String
    /// What happened: the job's word for an accepted item (`created`, `updated`, `deleted`), `accepted` or
    /// `planned` for a single request, else `skipped`, `duplicate`, `bad`, `failed` or `unknown`.
    package var outcome: String
    /// The id the item made or used (a registration id, a notification id).
    package var id: String?
    /// Why it was not accepted, naming its `file:line` when it came from a file.
    package var reason: String?
    /// True for `failed` and `bad`.
    package var isFailure: Bool { outcome == "failed" || outcome == "bad" }

    /// Creates a report.
    package init(row: Int, label: String, outcome: String, id: String? = nil, reason: String? = nil) {
        self.row = row
        self.label = label
        self.outcome = outcome
        self.id = id
        self.reason = reason
    }
}
