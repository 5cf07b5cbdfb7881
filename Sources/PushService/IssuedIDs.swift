import Synchronization

/// Registration ids this process handed out (`POST /api/register`) and to whom, until their first upsert.
///
/// A new id has no registration behind it yet, so the hub cannot say whose it is; only the caller it was issued to
/// may create it. The map lives in memory: after a restart an unused id is answered 410, and the app asks for a
/// new one, as it does after any 410. Each user holds at most `perUser` unused ids (the oldest is forgotten), so
/// no caller can grow the map.
final class IssuedIDs: Sendable {
    private struct State {
        var owners: [String: (user: String, at: Double)] = [:]
        var byUser: [String: [String]] = [:]
    }

    private let state = Mutex(State())
    /// An id unused this long is forgotten.
    static let lifetime: Double = 24 * 3600
    /// Unused ids one user may hold.
    static let perUser = 10

    func issue(_ id: String, to user: String, now: Double) {
        state.withLock { state in
            var held = (state.byUser[user] ?? []).filter {
                state.owners[$0].map { now - $0.at < Self.lifetime } ?? false
            }
            while held.count >= Self.perUser { state.owners[held.removeFirst()] = nil }
            held.append(id)
            state.byUser[user] = held
            state.owners[id] = (user, now)
        }
    }

    func isIssued(_ id: String, to user: String, now: Double) -> Bool {
        state.withLock { state in
            guard let owner = state.owners[id], now - owner.at < Self.lifetime else { return false }
            return owner.user == user
        }
    }

    func forget(_ id: String) {
        state.withLock { state in
            guard let owner = state.owners.removeValue(forKey: id) else { return }
            state.byUser[owner.user]?.removeAll { $0 == id }
            if state.byUser[owner.user]?.isEmpty == true { state.byUser[owner.user] = nil }
        }
    }
}
