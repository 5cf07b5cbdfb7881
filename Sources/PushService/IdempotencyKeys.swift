import Synchronization

/// `Idempotency-Key` values seen, per caller, with the digest of the request they came with and the run they
/// started: a retried POST gets the first run back instead of a second run; the same key with another request is
/// refused (422), as the IETF Idempotency-Key draft says. Kept in memory for a day; a retry after a restart still
/// sends nothing twice, because a pipeline run with the same parameters is the same run to the run store.
final class IdempotencyKeys: Sendable {
    private let seen = Mutex<[String: (digest: String, runID: String, at: Double)]>([:])
    static let lifetime: Double = 24 * 3600

    enum Lookup: Equatable {
        case new
        case replay(runID: String)
        case mismatch
    }

    func lookup(_ key: String, caller: String, digest: String, now: Double) -> Lookup {
        seen.withLock { seen in
            guard let entry = seen[caller + "\u{0}" + key], now - entry.at < Self.lifetime else { return .new }
            return entry.digest == digest ? .replay(runID: entry.runID) : .mismatch
        }
    }

    func remember(_ key: String, caller: String, digest: String, runID: String, now: Double) {
        seen.withLock { seen in
            // Bounded: past 10,000 keys the older half is forgotten (a forgotten key's retry is still safe, see above).
            if seen.count >= 10_000 {
                let cutoff = seen.values.map(\.at).sorted()[seen.count / 2]
                seen = seen.filter { $0.value.at > cutoff && now - $0.value.at < Self.lifetime }
            }
            seen[caller + "\u{0}" + key] = (digest, runID, now)
        }
    }
}
