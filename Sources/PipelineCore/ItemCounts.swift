/// How a batch step's items ended.
public struct ItemCounts: Sendable, Equatable, Encodable {
    /// Accepted by the hub in this run.
    public var accepted = 0
    /// Failed for a known reason (malformed rows included).
    public var failed = 0
    /// Sent, but whether the hub accepted them is unknown; not resent unless asked.
    public var unknown = 0
    /// Not sent again: accepted by an earlier attempt of this run.
    public var skipped = 0

    /// Creates counts.
    public init(accepted: Int = 0, failed: Int = 0, unknown: Int = 0, skipped: Int = 0) {
        self.accepted = accepted
        self.failed = failed
        self.unknown = unknown
        self.skipped = skipped
    }

    /// Every item counted.
    public var total: Int { accepted + failed + unknown + skipped }
    /// True when some item failed or its fate is unknown.
    public var isPartial: Bool { failed + unknown > 0 }
}
