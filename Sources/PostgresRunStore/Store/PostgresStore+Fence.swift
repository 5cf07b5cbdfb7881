import PostgresNIO

/// Checking a run lock's fence inside a write transaction (a claim checks it with its keys' locks: `PostgresLedger.claim`).
extension PostgresStore {
    /// Throws unless `fence` (a run lock's epoch) is still the lock's, read under a share lock on its row so a
    /// takeover waits for this transaction; nothing to check without a fence.
    func checkFence(_ fence: PostgresRunLock.Fence?, _ connection: PostgresConnection) async throws {
        guard let fence else { return }
        var current: Int?
        for try await epoch in try await connection.execute(FenceEpoch(name: fence.name), logger: logger) {
            current = epoch
        }
        guard current == fence.epoch else {
            throw PostgresFailure.lostLock(location: location, pauses: pauses)
        }
    }

    /// The lock's epoch, its row share-locked. Prepared once per connection, as every statement of a group commit is.
    struct FenceEpoch: PostgresPreparedStatement {
        static let name = "pushline_fence_v1"
        static let sql = "SELECT epoch FROM pushline.locks WHERE name = $1 FOR SHARE"
        typealias Row = Int
        var name: String

        func makeBindings() throws -> PostgresBindings {
            var binds = PostgresBindings(capacity: 1)
            binds.append(name)
            return binds
        }

        func decodeRow(_ row: PostgresRow) throws -> Int { try row.decode(Int.self) }
    }
}
