import HubWire
import PipelineCore

/// One unit of a batch step: a row's request, a device's requests, or why the row cannot be sent.
package struct BatchItem: Sendable {
    /// What to do with it.
    package enum Work: Sendable {
        /// Send this request.
        case request(HubRequest)
        /// Make this job's requests.
        case job(any BatchJob)
        /// The row is malformed: count it bad with this reason (it starts with `file:line`).
        case invalid(String)
    }

    /// The row number (1-based) within the step.
    package var row: Int
    /// Where it came from, for people (`rows.csv:42`, or the step's location for a single send).
    package var origin: String
    /// A digest of the row's content.
    package var digest: String
    /// The request, the job or the problem.
    package var work: Work
    /// The idempotency key (the same key is the same notification, across runs); nil for none.
    package var key: String?
    /// Whom it is for (audience, handles, installation id), for `pushline runs find`.
    package var target: String?
    /// What item reports call it (an installation id); nil for its origin.
    package var label: String?
    /// Whether the dedupe window holds it back when a run already did the same (its key). An item that sets
    /// the state of one named resource (an installation PUT) is always done again; one that creates (a
    /// registration without an id, a notification) is not.
    package var dedupes = true
    /// Whether every request of the item is safe to repeat once its target is fixed. An earlier attempt
    /// that left it of unknown fate then does it again (reusing the id it journalled) instead of reporting
    /// it unknown.
    package var repeatable = false
    /// What `--shard I/N` hashes to place the item: a column's value (`shard-key:`); nil for its idempotency key,
    /// or without one the row's digest (its whole content).
    package var shardKey: String?

    /// Creates an item.
    package init(row: Int, origin: String, digest: String, work: Work, key: String? = nil, target: String? = nil) {
        self.row = row
        self.origin = origin
        self.digest = digest
        self.work = work
        self.key = key
        self.target = target
    }

    /// What item reports call it.
    var shownLabel: String { label ?? origin }
}
