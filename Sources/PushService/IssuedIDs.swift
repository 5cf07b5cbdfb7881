import Synchronization

/// Registration ids this process handed out (`POST /api/register`) and to whom, until their first upsert.
///
/// A new id has no registration behind it yet, so the hub cannot say whose it is; only the caller it was issued to
/// may create it. The map lives in memory: after a restart an unused id is answered 410, and the app asks for a
/// new one, as it does after any 410.
final class IssuedIDs: Sendable {
    private let owners = Mutex<[String: (user: String, at: Double)]>([:])
    /// An id unused this long is forgotten.
    static let lifetime: Double = 24 * 3600

    func issue(_ id: String, to user: String, now: Double) {
        owners.withLock { owners in
            if owners.count > 100_000 { owners = owners.filter { now - $0.value.at < Self.lifetime } }
            owners[id] = (user, now)
        }
    }

    func isIssued(_ id: String, to user: String, now: Double) -> Bool {
        owners.withLock { owners in
            guard let owner = owners[id], now - owner.at < Self.lifetime else { return false }
            return owner.user == user
        }
    }

    func forget(_ id: String) {
        _ = owners.withLock { $0.removeValue(forKey: id) }
    }
}
