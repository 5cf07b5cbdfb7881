import HubWire
import PipelineCore

/// One unit of a batch step: a row's request, or why the row cannot be sent.
public struct BatchItem: Sendable {
    /// What to do with it.
    public enum Work: Sendable {
        /// Send this request.
        case request(HubRequest)
        /// The row is malformed: count it failed with this reason (it starts with `file:line`).
        case invalid(String)
    }

    /// The row number (1-based) within the step.
    public var row: Int
    /// Where it came from, for people (`rows.csv:42`, or the step's location for a single send).
    public var origin: String
    /// A digest of the row's content.
    public var digest: String
    /// The request or the problem.
    public var work: Work
    /// The idempotency key (the same key is the same notification, across runs); nil for none.
    public var key: String?
    /// Whom it is for (audience, handles), for `pushline runs find`.
    public var target: String?

    /// Creates an item.
    public init(row: Int, origin: String, digest: String, work: Work, key: String? = nil, target: String? = nil) {
        self.row = row
        self.origin = origin
        self.digest = digest
        self.work = work
        self.key = key
        self.target = target
    }
}
