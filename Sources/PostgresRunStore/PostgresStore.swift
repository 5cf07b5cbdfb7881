import Foundation
import Logging
import NIOCore
import NIOSSL
import PipelineCore
import PostgresNIO
import RunStore
import Synchronization

/// The run store in a PostgreSQL database: runs, items and run locks shared by every machine that names the
/// same database, so a run killed on one node resumes on another without sending twice.
///
/// Tables live in the schema `pushline`, created and migrated by the store itself (`PostgresSchema`). Every
/// write commits before its method returns. Locks are session advisory locks held on a connection of their
/// own, released by the server when the holder's process or connection dies, and fenced by an epoch that
/// every ledger write checks (`PostgresRunLock`).
package final class PostgresStore: RunStore {
    /// The URL without its password.
    package let location: String
    /// A session's lock lapses when the server stops hearing from it, even while its process still exists.
    package var locksEndWithTheirProcess: Bool { false }
    let settings: PostgresLocation
    let client: PostgresClient
    /// The watch of this process a lock can be lost to, started when the store opens and stopped when it closes.
    let pauses: ProcessPauses
    private let runner: Task<Void, Never>
    /// Logs nothing: PostgresNIO's messages may carry a query's values, and the store reports through errors.
    let logger = Logger(label: "pushline.run-store", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Connects to the store `url` names, creating or migrating its schema, and fails fast with a clear error
    /// when the server cannot be reached or rejects the login. `environment` supplies `PGPASSWORD`.
    ///
    /// With `create` off, a database without pushline's schema is left untouched and nil is returned (nothing has
    /// run there yet): what a dry run and the `runs` commands, which only read, want.
    package static func open(_ url: String, environment: [String: String], create: Bool = true)
        async throws(RunStoreError) -> PostgresStore?
    {
        let settings = try PostgresLocation(url, environment: environment)
        let location = settings.description
        // A lock in PostgreSQL can be lost while this process stands still; the watch lets messages say so.
        let pauses = ProcessPauses()
        pauses.start()
        // One direct connection first: a wrong password or an unknown database is an error now, not a pool
        // that retries in the background while a query waits.
        let connection: PostgresConnection
        do { connection = try await connect(settings, doing: "connecting") } catch {
            pauses.stop()
            throw error
        }
        let present: Bool
        do {
            // Bounded: a server that dies mid-migration must not hold the run at its start.
            present = try await within(.seconds(settings.connectTimeout + 2) + defaultQueryLimit) {
                if create {
                    try await PostgresSchema.prepare(connection, location: location)
                    return true
                }
                return try await PostgresSchema.exists(connection, location: location)
            }
        } catch {
            let closing: EventLoopFuture<Void> = connection.close()
            closing.whenComplete { _ in withExtendedLifetime(connection) {} }
            // Read before the watch stops: a pause that has just ended is seen only while it still watches.
            let failure = PostgresFailure.storeError(
                error, location: location, doing: "preparing the schema", pauses: pauses)
            pauses.stop()
            throw failure
        }
        try? await connection.close()
        guard present else {
            pauses.stop()
            return nil
        }
        do { return try PostgresStore(settings: settings, pauses: pauses) } catch {
            pauses.stop()
            throw error
        }
    }

    private init(settings: PostgresLocation, pauses: ProcessPauses) throws(RunStoreError) {
        self.settings = settings
        self.pauses = pauses
        location = settings.description
        var configuration: PostgresClient.Configuration
        let tls = try Self.clientTLS(settings)
        if let socket = Self.socketPath(settings) {
            configuration = PostgresClient.Configuration(
                unixSocketPath: socket, username: settings.user, password: settings.password,
                database: settings.database)
        } else {
            configuration = PostgresClient.Configuration(
                host: settings.host ?? "", port: settings.port, username: settings.user,
                password: settings.password, database: settings.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(Int64(settings.connectTimeout))
        configuration.options.additionalStartupParameters =
            [("application_name", settings.applicationName)]
            + Self.serverTimeouts + Self.serverKeepalives
        // A batch writes from a few tasks at once; more connections than that only cost the server.
        configuration.options.maximumConnections = 8
        // An idle pooled connection whose server went away is found within seconds, before a write leases it.
        configuration.options.keepAliveBehavior = .init(frequency: .seconds(5))
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        runner = Task { await client.run() }
    }

    deinit {
        runner.cancel()
        pauses.stop()
    }

    /// Closes the store's connections and stops its watch of this process. Locks are released by their own `release`.
    package func close() async {
        runner.cancel()
        pauses.stop()
        // The pool ends its connections on cancellation; a server that went away must not hold up the exit.
        let runner = runner
        _ = try? await Self.within(.seconds(5)) { await runner.value }
    }

    /// How long a call may wait for a pooled connection before the store counts as unreachable: the pool keeps
    /// retrying a server that is down, and a run must stop with a resumable error instead of hanging. Once it has
    /// a connection, a query takes as long as the server needs.
    var leaseLimit: Duration { .seconds(settings.connectTimeout + 2) }

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

    /// Session settings of pooled connections, so the server itself ends what the client gave up on: a statement
    /// stops before `defaultQueryLimit` passes, and a transaction left open by a caller that is gone is rolled back.
    static let serverTimeouts = [("statement_timeout", "25s"), ("idle_in_transaction_session_timeout", "30s")]
    /// The server probes an idle client after 10 s and drops it after 3 missed probes 5 s apart, so a run lock
    /// held by a machine that vanished (no FIN, no RST) is freed in about 25 s rather than the kernel's 2 hours.
    static let serverKeepalives = [
        ("tcp_keepalives_idle", "10"), ("tcp_keepalives_interval", "5"), ("tcp_keepalives_count", "3"),
    ]

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
            let value: T = try await Self.within(leaseLimit + queryLimit, waiting: (leaseLimit, call)) {
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

    /// `body`'s result, or `StoreDeadline` once `limit` passes. With `waiting`, `body` also fails at that earlier
    /// limit if its call is still waiting for a connection then; once it runs, only `limit` bounds it.
    ///
    /// `body` runs in a task of its own that is cancelled but not awaited when a limit passes: PostgresNIO's pool
    /// may not answer a cancelled lease while it is reconnecting, and waiting for it is the hang this prevents. One
    /// timer serves both limits: every journal write passes through here, and each task it starts costs thread hops.
    /// A result that comes after a limit passed is nobody's: `late` disposes of it (a connection must be closed).
    static func within<T: Sendable>(
        _ limit: Duration, waiting: (limit: Duration, call: PooledCall)? = nil,
        late: (@Sendable (T) async -> Void)? = nil,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let outcome = Outcome<T>()
        let timer = TimerBox()
        let started = ContinuousClock.now
        return try await withCheckedThrowingContinuation { continuation in
            outcome.attach(continuation)
            let work = Task {
                do {
                    let value = try await body()
                    if !outcome.finish(.success(value)) { await late?(value) }
                } catch { outcome.finish(.failure(error)) }
                // Finished first: the timer has nothing left to do (thousands of calls must not leave sleepers behind).
                timer.cancel()
            }
            timer.set(
                Task {
                    if let waiting, waiting.limit < limit {
                        try? await Task.sleep(until: started + waiting.limit)
                        if Task.isCancelled { return }
                        if waiting.call.giveUpWaiting() {
                            if outcome.finish(.failure(StoreDeadline(limit: waiting.limit, started: started))) {
                                work.cancel()
                            }
                            return
                        }
                    }
                    try? await Task.sleep(until: started + limit)
                    if Task.isCancelled { return }
                    if outcome.finish(.failure(StoreDeadline(limit: limit, started: started))) { work.cancel() }
                })
        }
    }

}
