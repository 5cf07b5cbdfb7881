/// Per-message telemetry from `GET messages/{notificationId}` (nh-rest-api.md §5.6).
public struct NotificationDetails: Sendable, Equatable {
    /// Processing state of the notification.
    public enum State: String, Sendable, CaseIterable {
        /// Accepted, not yet processed.
        case enqueued = "Enqueued"
        /// Being delivered.
        case processing = "Processing"
        /// Delivered to the PNSs.
        case completed = "Completed"
        /// Given up.
        case abandoned = "Abandoned"
        /// Not known, also used for states this version does not know.
        case unknown = "Unknown"
        /// No registration matched.
        case noTargetFound = "NoTargetFound"
        /// A scheduled send that was cancelled (the REST reference and Java spell it `Canceled`; both read as this).
        case cancelled = "Cancelled"
        /// A scheduled send waiting for its time.
        case scheduled = "Scheduled"

        /// The state named `text`, either spelling of cancelled included; nil for a name this version does not know.
        public init?(name text: String) {
            let trimmed = text.trimmingWhitespace()
            if trimmed.lowercased() == "canceled" {
                self = .cancelled
                return
            }
            guard let state = State.allCases.first(where: { $0.rawValue.lowercased() == trimmed.lowercased() }) else {
                return nil
            }
            self = state
        }

        /// True for states that do not change any more: `Completed`, `Abandoned`, `NoTargetFound`, `Cancelled`.
        public var isFinal: Bool {
            switch self {
            case .completed, .abandoned, .noTargetFound, .cancelled: true
            case .enqueued, .processing, .unknown, .scheduled: false
            }
        }
    }

    /// One `<Outcome>` of an `…OutcomeCounts` element.
    public struct OutcomeCount: Sendable, Equatable {
        /// `Name`, e.g. `Success` or `InvalidCredentials`.
        public var name: String
        /// `Count`.
        public var count: Int

        /// Creates a count.
        public init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
    }

    /// `NotificationId`.
    public var notificationId: String
    /// `Location`: the message URL.
    public var location: String?
    /// `State`.
    public var state: State
    /// `EnqueueTime`.
    public var enqueueTime: String?
    /// `StartTime`.
    public var startTime: String?
    /// `EndTime`.
    public var endTime: String?
    /// `NotificationBody`: the payload as sent.
    public var notificationBody: String?
    /// `Tags`: the tag expression.
    public var tags: String?
    /// `TargetPlatforms`, e.g. `apple,gcm`.
    public var targetPlatforms: String?
    /// `PnsErrorDetailsUri`: a blob URL with PNS error details.
    public var pnsErrorDetailsUri: String?
    /// Outcome counts keyed by element-name prefix: "Apns", "Mpns", "Wns", "Gcm", "Adm", "Fcm", "FcmV1", "Baidu",
    /// "Browser", "Xiaomi" (for `ApnsOutcomeCounts`, …).
    public var outcomeCounts: [String: [OutcomeCount]]

    /// Creates details with only an id and a state.
    public init(notificationId: String, state: State) {
        self.notificationId = notificationId
        self.state = state
        self.outcomeCounts = [:]
    }
}
