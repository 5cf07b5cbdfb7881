import HubWire

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

/// What a batch came to.
public struct BatchOutcome: Sendable {
    /// Items by outcome.
    public var counts = ItemCounts()
    /// The first notification ids (at most `BatchRunner.keptIds`); the journal has them all.
    public var notificationIds: [String] = []
    /// Failed and unknown items grouped by reason, biggest group first.
    public var failures: [FailureGroup] = []
    /// Dry runs: the first requests as they would be sent (signature redacted).
    public var dryRunLines: [String] = []
    /// The first requests' outcomes (at most `BatchRunner.keptIds`): request, status, TrackingId,
    /// attempts, timing, notification id, outcome and reason.
    public var requestReports: [ReportValue] = []
    /// Requests made (retries not counted).
    public var requests = 0
    /// Retries made.
    public var retries = 0
    /// `--again`: items sent although an earlier run had sent the same notification within the window.
    public var resent = 0
    /// True when a stop signal ended the batch before its last item.
    public var interrupted = false

    /// Creates an empty outcome.
    public init() {}

    /// One reason and the items that met it.
    public struct FailureGroup: Sendable, Equatable {
        /// `failed`, `unknown`, `duplicate` or `bad`.
        public var state: ItemState
        /// The reason.
        public var reason: String
        /// Items with it.
        public var count: Int
        /// The first few items' origins and TrackingIds.
        public var examples: [String]
        /// What to do about it, when known.
        public var hint: String?
    }

    /// Structured detail for the report: counts, ids, failure groups.
    public var reportFields: [ReportField] {
        [
            ReportField("items", .object([
                ReportField("accepted", .int(counts.accepted)), ReportField("planned", .int(counts.planned)),
                ReportField("failed", .int(counts.failed)), ReportField("unknown", .int(counts.unknown)),
                ReportField("skipped", .int(counts.skipped)), ReportField("duplicates", .int(counts.duplicates)),
                ReportField("bad", .int(counts.bad)),
            ])),
            ReportField("notificationIds", .array(notificationIds.map(ReportValue.string))),
            ReportField("failures", .array(failures.map { group in
                .object([ReportField("state", .string(group.state.rawValue)), ReportField("reason", .string(group.reason)),
                         ReportField("count", .int(group.count)), ReportField("examples", .array(group.examples.map(ReportValue.string)))])
            })),
            ReportField("requests", .int(requests)), ReportField("retries", .int(retries)), ReportField("resent", .int(resent)),
        ]
    }
}
