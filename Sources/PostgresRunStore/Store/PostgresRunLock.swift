import Logging
import NIOCore
import PipelineCore
import PostgresNIO
import RunStore
import Synchronization

/// A run lock held in PostgreSQL: a session advisory lock on a connection of its own.
///
/// The server drops the lock when that connection ends, however it ends: the process exits or is killed,
/// its node dies (TCP keepalives, set short on this connection, notice within about a minute), or the
/// network parts. A holder that is only slow could then still be writing after another process took over;
/// so taking the lock also raises the lock's epoch in `pushline.locks`, and every ledger write of the old
/// holder checks its epoch and is refused (`PostgresLedger`): two processes never both record sends for one
/// pipeline (or one shard of it).
final class PostgresRunLock: RunLock {
    /// What a ledger write checks: the lock's name and the epoch this holder took it at.
    struct Fence: Sendable {
        let name: String
        let epoch: Int
    }

    let holder: LockHolder
    let fence: Fence
    private let connection: Mutex<PostgresConnection?>
    private let heartbeat: Task<Void, Never>
    private let logger: Logger

    init(holder: LockHolder, fence: Fence, connection: PostgresConnection, logger: Logger) {
        self.holder = holder
        self.fence = fence
        self.connection = Mutex(connection)
        self.logger = logger
        // A query now and then keeps the connection from being closed as idle by a proxy or
        // `idle_session_timeout`, and shows the server that this holder is alive.
        heartbeat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(15))
                if Task.isCancelled { break }
                _ = try? await connection.query("SELECT 1", logger: logger)
            }
        }
    }

    deinit {
        heartbeat.cancel()
        // A lock dropped without `release` still ends its session (and so the lock) rather than leak it.
        if let connection = connection.withLock({ $0 }) {
            let closing: EventLoopFuture<Void> = connection.close()
            closing.whenComplete { _ in withExtendedLifetime(connection) {} }
        }
    }

    func release() async {
        heartbeat.cancel()
        guard
            let connection = connection.withLock({ value in
                defer { value = nil }
                return value
            })
        else { return }
        // Closing the session releases its advisory locks; unlocking first makes that immediate even when the
        // close is slow. A connection the server already ended (the lock is gone with it) is only closed here;
        // either step is bounded, so a dead network cannot hold up the end of a run.
        let logger = logger
        _ = try? await Bounded.within(.seconds(5)) {
            if !connection.isClosed {
                _ = try await connection.query("SELECT pg_advisory_unlock_all()", logger: logger)
            }
        }
        let closing: EventLoopFuture<Void> = connection.close()
        _ = try? await Bounded.within(.seconds(5)) { try await closing.get() }
    }

    /// The lock key of `name`: a 64-bit hash PostgreSQL computes, so `isLocked` can find it in `pg_locks`.
    static let keySQL = "hashtextextended($1, 0)"

    /// The lock's name for `pipeline`: lock names and pipeline paths are kept apart from other advisory locks of
    /// the same database by the prefix.
    static func lockName(_ pipeline: String) -> String { "pushline-run:" + pipeline }

    /// Takes the run lock of `pipeline` in `store` on a connection of its own, or says who holds it.
    static func take(pipeline: String, holder: LockHolder, in store: PostgresStore) async throws(RunStoreError)
        -> LockAttempt
    {
        let name = lockName(pipeline)
        let connection = try await PostgresConnections.connect(
            store.settings, doing: "taking the run lock", role: "run lock")
        let logger = store.logger
        do {
            // Bounded like every store call: a server that dies mid-query must not hold the run at its start.
            return try await Bounded.within(store.calls.leaseLimit + store.calls.queryLimit) {
                // The connection has short keepalives from its start (`serverKeepalives`): a holder whose node vanished
                // without closing it is noticed in about 25 s. The lock timeout bounds the wait for an old holder's
                // fenced write.
                try await connection.query("SET lock_timeout = '10s'", logger: logger)
                var taken = false
                for try await row in try await connection.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT pg_try_advisory_lock(\(keySQL))", binds: PostgresRows.binds(name)),
                    logger: logger)
                {
                    taken = try row.decode(Bool.self)
                }
                guard taken else {
                    let shown = try await Self.holder(of: name, on: connection, logger: logger)
                    try? await connection.close()
                    return .held(shown)
                }
                var epoch = 0
                for try await row in try await connection.query(
                    """
                    INSERT INTO pushline.locks (name, epoch, pid, host, started_at)
                    VALUES (\(name), 1, \(Int(holder.pid)), \(holder.host), \(holder.startedAt))
                    ON CONFLICT (name) DO UPDATE SET epoch = locks.epoch + 1, pid = excluded.pid, host = excluded.host,
                        started_at = excluded.started_at
                    RETURNING epoch
                    """, logger: logger)
                {
                    epoch = try row.decode(Int.self)
                }
                return .acquired(
                    PostgresRunLock(
                        holder: holder, fence: .init(name: name, epoch: epoch), connection: connection, logger: logger))
            }
        } catch {
            let closing: EventLoopFuture<Void> = connection.close()
            closing.whenComplete { _ in withExtendedLifetime(connection) {} }
            throw PostgresFailure.storeError(
                error, location: store.location, doing: "taking the run lock", pauses: store.pauses)
        }
    }

    /// True when some session holds the run lock of `pipeline` in `store`.
    static func isHeld(pipeline: String, in store: PostgresStore) async throws(RunStoreError) -> Bool {
        let name = lockName(pipeline)
        let logger = store.logger
        return try await store.withConnection("checking the run lock") { connection in
            // A bigint advisory lock shows in pg_locks as classid (high 32 bits) and objid (low 32 bits), objsubid 1.
            let rows = try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1
                            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                            AND ((classid::bigint << 32) | objid::bigint) = \(keySQL))
                        """, binds: PostgresRows.binds(name)), logger: logger)
            var found = false
            for try await row in rows { found = try row.decode(Bool.self) }
            return found
        }
    }

    /// Who holds the lock `name`, as its holder recorded it.
    private static func holder(of name: String, on connection: PostgresConnection, logger: Logger) async throws
        -> LockHolder?
    {
        var found: LockHolder?
        for try await row in try await connection.query(
            "SELECT pid, host, started_at FROM pushline.locks WHERE name = \(name)", logger: logger)
        {
            let (pid, host, startedAt) = try row.decode((Int, String, Double).self)
            found = LockHolder(pid: Int32(clamping: pid), host: host, startedAt: startedAt)
        }
        return found
    }
}

extension PostgresStore {
    package func lock(pipeline: String, holder: LockHolder) async throws(RunStoreError) -> LockAttempt {
        try await PostgresRunLock.take(pipeline: pipeline, holder: holder, in: self)
    }

    package func isLocked(pipeline: String) async throws(RunStoreError) -> Bool {
        try await PostgresRunLock.isHeld(pipeline: pipeline, in: self)
    }

    package func ledger(for run: RunRecord, lock: (any RunLock)?) -> any ItemLedger {
        PostgresLedger(store: self, run: run.id, fence: (lock as? PostgresRunLock)?.fence, record: run)
    }

    package func readOnlyLedger() -> any ItemLedger {
        PostgresLedger(store: self, run: nil, fence: nil)
    }
}
