/// How a batch step's items ended. Every record of the input lands in exactly one count, so
/// `accepted + planned + failed + unknown + skipped + duplicates + bad + otherShards` is the number of items read.
public struct ItemCounts: Sendable, Equatable, Encodable {
    /// Accepted by the hub in this run.
    public var accepted = 0
    /// Dry runs: would be sent (nothing was).
    public var planned = 0
    /// Failed for a known reason: the hub refused it, or it could not be built.
    public var failed = 0
    /// Sent, but whether the hub accepted them is unknown; not resent unless asked.
    public var unknown = 0
    /// Not sent again: accepted by an earlier attempt of this run.
    public var skipped = 0
    /// Not sent: the same notification (idempotency key) was already sent, by another run of the pipeline
    /// within the step's dedupe window or by an earlier row of this run.
    public var duplicates = 0
    /// Malformed records of the input (bad CSV, a value that renders an invalid audience or payload): never sent.
    public var bad = 0
    /// Not run here: rows of other shards of a `--shard I/N` run (another process runs them).
    public var otherShards = 0

    /// Creates counts.
    public init(
        accepted: Int = 0, planned: Int = 0, failed: Int = 0, unknown: Int = 0, skipped: Int = 0, duplicates: Int = 0,
        bad: Int = 0, otherShards: Int = 0
    ) {
        self.accepted = accepted
        self.planned = planned
        self.failed = failed
        self.unknown = unknown
        self.skipped = skipped
        self.duplicates = duplicates
        self.bad = bad
        self.otherShards = otherShards
    }

    /// Every item counted.
    public var total: Int { accepted + planned + failed + unknown + skipped + duplicates + bad + otherShards }
    /// True when some item failed, is malformed, or its fate is unknown.
    public var isPartial: Bool { failed + unknown + bad > 0 }

    /// The counts of both.
    public static func + (lhs: ItemCounts, rhs: ItemCounts) -> ItemCounts {
        ItemCounts(
            accepted: lhs.accepted + rhs.accepted, planned: lhs.planned + rhs.planned, failed: lhs.failed + rhs.failed,
            unknown: lhs.unknown + rhs.unknown, skipped: lhs.skipped + rhs.skipped,
            duplicates: lhs.duplicates + rhs.duplicates, bad: lhs.bad + rhs.bad,
            otherShards: lhs.otherShards + rhs.otherShards)
    }

    /// The non-zero counts in words, biggest meaning first: `4,995 accepted, 5 bad`; `nothing` when all are zero.
    public var phrase: String {
        let parts: [(Int, String)] = [
            (accepted, "accepted"), (planned, "would be sent"), (failed, "failed"), (unknown, "unknown"),
            (skipped, "done by an earlier attempt"), (duplicates, "already sent"), (bad, "bad"),
            (otherShards, "for other shards"),
        ]
        let shown = parts.filter { $0.0 > 0 }.map { "\(Self.grouped($0.0)) \($0.1)" }
        return shown.isEmpty ? "nothing" : shown.joined(separator: ", ")
    }

    /// `4995` as `4,995`: counts people read at a glance.
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + out
    }
}
