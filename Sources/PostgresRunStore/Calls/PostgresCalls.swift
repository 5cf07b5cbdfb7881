import Foundation
import Logging
import NIOCore
import PostgresNIO
import RunStore
import Synchronization

/// Calls on the store's connection pool, each bounded: a lease that does not come within the connect timeout, or a
/// call whose queries take longer than the query limit, fails with a resumable error instead of hanging; a store
/// found unreachable fails the calls of the next few seconds at once; and a call given up never lands later.
final class PostgresCalls: Sendable {
    let client: PostgresClient
    /// The store's URL without its password, for messages.
    let location: String
    let pauses: ProcessPauses
    let logger: Logger
    /// Seconds a connection may take to open.
    let connectTimeout: Int

    init(client: PostgresClient, location: String, pauses: ProcessPauses, logger: Logger, connectTimeout: Int) {
        self.client = client
        self.location = location
        self.pauses = pauses
        self.logger = logger
        self.connectTimeout = connectTimeout
    }

    /// How long a call may wait for a pooled connection before the store counts as unreachable: the pool keeps
    /// retrying a server that is down, and a run must stop with a resumable error instead of hanging. Once it has
    /// a connection, a query takes as long as the server needs.
    var leaseLimit: Duration { .seconds(connectTimeout + 2) }

    /// When a call last found the store unreachable; calls within `downPause` of it fail at once, so a run whose
    /// journal went away stops in seconds rather than waiting out the lease limit at every remaining write.
    private let wentDown = Mutex<ContinuousClock.Instant?>(nil)
    private let downPause = Duration.seconds(5)
    /// The most one call's queries may take once it has a connection. A journal write is a few milliseconds;
    /// the longest read (`runs find` over a large journal) stays far below it.
    static let defaultQueryLimit = Duration.seconds(30)
    /// This store's limit: `defaultQueryLimit` but in tests.
    var queryLimit: Duration { limit.withLock { $0 } }
    private let limit = Mutex(defaultQueryLimit)

    /// Shortens the limit on a call's queries from now on. Tests do, once the store's pool has a connection, to see
    /// what a call given up leaves behind: with the short limit from the start, a loaded machine fails the setup.
    func limitQueries(to limit: Duration) {
        self.limit.withLock { $0 = limit }
    }

    /// Runs `body` on a pooled connection, turning every failure into a `RunStoreError`.
    @discardableResult
    func withConnection<T: Sendable>(
        _ doing: String,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(RunStoreError) -> T {
        try await withCall(doing) { connection, _ in try await body(connection) }
    }

    /// `withConnection`, with the call's state given to `body`, so a transaction can see that its caller gave up.
    private func withCall<T: Sendable>(
        _ doing: String,
        _ body: @escaping @Sendable (PostgresConnection, PooledCall) async throws -> T
    ) async throws(RunStoreError) -> T {
        if let down = wentDown.withLock({ $0 }), ContinuousClock.now - down < downPause {
            throw RunStoreError(
                "cannot reach the run store at \(location) (it was unreachable a moment ago); "
                    + "run again once it is back, and the run resumes", kind: .unavailable)
        }
        let client = client
        let started = ContinuousClock.now
        // A lease that arrives after the caller gave up runs nothing, and a call given up while it runs loses its
        // connection, so a write reported as failed does not land later.
        let call = PooledCall()
        do {
            let leaseLimit = leaseLimit
            // The whole call is bounded too, by the same timer: a query on a connection whose server died mid-query
            // was seen to wait forever, though its socket was gone.
            let value: T = try await Bounded.within(leaseLimit + queryLimit, waiting: (leaseLimit, call)) {
                try await client.withConnection { connection in
                    guard call.start(on: connection) else { throw StoreDeadline(limit: .zero) }
                    let result: Result<T, any Error>
                    do { result = .success(try await body(connection, call)) } catch { result = .failure(error) }
                    // Given up while running: the connection is being closed; it goes back to the pool closed,
                    // never to be leased half-closed by another call.
                    if !call.finish() { try? await connection.close() }
                    return try result.get()
                }
            }
            wentDown.withLock { $0 = nil }
            return value
        } catch {
            // Closing ends the server session, which rolls back a transaction not yet committed (the server's own
            // statement and idle-in-transaction timeouts do the same should the close not get through).
            if let connection = call.abandon() {
                let closing: EventLoopFuture<Void> = connection.close()
                closing.whenComplete { _ in withExtendedLifetime(connection) {} }
            }
            var failure = PostgresFailure.storeError(error, location: location, doing: doing, pauses: pauses)
            // Only a store that did not answer counts as down; a refusal the store itself gave (a lost lock) does not,
            // nor a call cut short because this process stood still (its timer fired late, or the server ended a
            // session left idle in a transaction meanwhile): that is said as what it was.
            if failure.kind == .unavailable, !(error is RunStoreError) {
                if let pause = pauses.longest(since: started) {
                    failure = PostgresFailure.paused(doing: doing, location: location, pause: pause)
                } else {
                    wentDown.withLock { $0 = .now }
                }
            }
            throw failure
        }
    }

    /// Runs `body` in a transaction on a pooled connection (committed when it returns, rolled back when it throws).
    func transaction<T: Sendable>(
        _ doing: String,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(RunStoreError) -> T {
        let logger = logger
        let queryLimit = queryLimit
        return try await withCall(doing) { connection, call in
            try await connection.query("BEGIN", logger: logger)
            do {
                let value = try await body(connection)
                // The caller was told this call failed: commit nothing behind its back.
                guard !call.isAbandoned else { throw StoreDeadline(limit: queryLimit) }
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }
}
