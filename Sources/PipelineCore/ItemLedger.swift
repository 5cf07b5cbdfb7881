/// Where a batch run records each item, so a run that is cut off can resume without sending twice.
///
/// `PipelineCore` states what it needs; the `RunJournal` target implements it over SQLite. Every
/// method is synchronous and durable when it returns: an item is marked `sending` before its request
/// is written, and its outcome is recorded before it counts as done.
public protocol ItemLedger: AnyObject, Sendable {
    /// What an earlier attempt of this run recorded for the item; nil when the run never reached it.
    func entry(_ key: LedgerKey) throws(LedgerError) -> LedgerEntry?
    /// Marks items `sending` (and counts an attempt) in one transaction.
    func markSending(_ items: [LedgerItem]) throws(LedgerError)
    /// Records final outcomes (`accepted`, `failed`, `unknown`) in one transaction; an item never marked
    /// `sending` (a malformed row) is inserted with no attempt.
    func record(_ outcomes: [LedgerOutcome]) throws(LedgerError)
    /// Marks one item `sending` and records the id of what it is creating, in one transaction, so the id
    /// an earlier attempt obtained is never missing from the journal while the item is `sending` again.
    func markSending(_ item: LedgerItem, creating id: String) throws(LedgerError)
    /// Records the id of what a `sending` item is creating (a registration id the hub handed out), so a
    /// resumed run upserts that same resource instead of creating a second one. Durable when it returns.
    func assignId(_ id: String, to key: LedgerKey) throws(LedgerError)
    /// The newest item of any run of the same pipeline (this run's other items included) with this
    /// idempotency key that was accepted, is being sent, or was left of unknown fate, recorded at or after
    /// `since` (epoch seconds); nil when there is none. The item at `excluding` (the one asking) is never
    /// its own prior.
    func priorSend(key: String, since: Double, excluding: LedgerKey) throws(LedgerError) -> PriorSend?
    /// False for a ledger that can only be read (a dry run's view of the journal): nothing is written.
    var isWritable: Bool { get }
}

/// An earlier send of the same notification (same idempotency key), as the journal remembers it.
public struct PriorSend: Sendable, Equatable {
    /// The run that sent it.
    public var runId: String
    /// When it was last recorded (epoch seconds): accepted, or marked sending.
    public var at: Double
    /// `accepted`, `sending` or `unknown`.
    public var state: ItemState
    /// Where that item came from (`rows.csv:42`).
    public var origin: String
    /// True when it is an item of the asking run.
    public var sameRun: Bool
    /// Its notification id, when the hub gave one.
    public var notificationId: String?

    /// Creates a prior send.
    public init(runId: String, at: Double, state: ItemState, origin: String, sameRun: Bool, notificationId: String? = nil) {
        self.runId = runId
        self.at = at
        self.state = state
        self.origin = origin
        self.sameRun = sameRun
        self.notificationId = notificationId
    }
}

/// Which item: the step's position in the pipeline and the row's number in its input (1-based).
public struct LedgerKey: Sendable, Hashable, Comparable {
    /// The step's index in the pipeline (0-based).
    public var step: Int
    /// The row number (1-based; for CSV the header is not a row).
    public var row: Int

    /// Creates a key.
    public init(step: Int, row: Int) {
        self.step = step
        self.row = row
    }

    public static func < (lhs: LedgerKey, rhs: LedgerKey) -> Bool { (lhs.step, lhs.row) < (rhs.step, rhs.row) }
}

/// An item's life: `pending` → `sending` → `accepted` | `failed` | `unknown`; or, never sent, `duplicate`
/// (the same notification was sent already) or `bad` (a malformed record of the input).
public enum ItemState: String, Sendable, CaseIterable, Codable {
    /// Known, not started.
    case pending
    /// Its request may have been written; if the run stops now, its fate is unknown.
    case sending
    /// The hub accepted it.
    case accepted
    /// It failed for a known reason (nothing was accepted).
    case failed
    /// The request may or may not have been accepted (no answer after writing, 500, 504).
    case unknown
    /// Not sent: its idempotency key was accepted already (another run within the dedupe window, or an
    /// earlier row of this run).
    case duplicate
    /// Not sent: the input record is malformed.
    case bad
}

/// An item as it is first recorded.
public struct LedgerItem: Sendable, Equatable {
    /// Which item.
    public var key: LedgerKey
    /// The step's id (`send`, `register`).
    public var stepId: String
    /// Where it came from, for people: `rows.csv:42`.
    public var origin: String
    /// A digest of the row's content, so a resumed run can tell the row is the same one.
    public var digest: String
    /// The idempotency key: the same key means the same notification, across runs.
    public var idempotencyKey: String?
    /// Whom it is for, for `pushline runs find`: the audience, handle(s) or installation id.
    public var target: String?

    /// Creates an item.
    public init(key: LedgerKey, stepId: String, origin: String, digest: String, idempotencyKey: String? = nil, target: String? = nil) {
        self.key = key
        self.stepId = stepId
        self.origin = origin
        self.digest = digest
        self.idempotencyKey = idempotencyKey
        self.target = target
    }
}

/// An item's final outcome.
public struct LedgerOutcome: Sendable, Equatable {
    /// The item.
    public var item: LedgerItem
    /// `accepted`, `failed` or `unknown`.
    public var state: ItemState
    /// The notification id from `Location`, when the hub gave one.
    public var notificationId: String?
    /// Why it failed or is unknown (never holds a secret).
    public var error: String?
    /// True when sending it again may succeed (throttling, server errors, unreachable hub).
    public var retriable: Bool

    /// Creates an outcome.
    public init(item: LedgerItem, state: ItemState, notificationId: String? = nil, error: String? = nil, retriable: Bool = false) {
        self.item = item
        self.state = state
        self.notificationId = notificationId
        self.error = error
        self.retriable = retriable
    }
}

/// What an earlier attempt recorded.
public struct LedgerEntry: Sendable, Equatable {
    /// Which item.
    public var key: LedgerKey
    /// The row digest recorded then.
    public var digest: String
    /// Its state then.
    public var state: ItemState
    /// Requests made for it so far.
    public var attempts: Int
    /// The notification id, when accepted with one.
    public var notificationId: String?
    /// The recorded error.
    public var error: String?
    /// Whether a retry may succeed.
    public var retriable: Bool

    /// Creates an entry.
    public init(key: LedgerKey, digest: String, state: ItemState, attempts: Int, notificationId: String? = nil,
                error: String? = nil, retriable: Bool = false) {
        self.key = key
        self.digest = digest
        self.state = state
        self.attempts = attempts
        self.notificationId = notificationId
        self.error = error
        self.retriable = retriable
    }
}

/// The journal could not be read or written; the run stops rather than send without a record.
public struct LedgerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for people.
    public let message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// The step failure a journal error becomes: the run stops rather than send without a record.
    public var stepFailure: StepFailure {
        StepFailure("the run journal cannot be written: \(message); stopped so that nothing is sent without a record",
                    hint: "check the journal's disk and permissions (--journal PATH or PUSHLINE_JOURNAL), then run again to resume")
    }
}
