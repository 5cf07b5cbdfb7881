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
    /// Every call on the pool goes through these, bounded.
    let calls: PostgresCalls
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
        do { connection = try await PostgresConnections.connect(settings, doing: "connecting") } catch {
            pauses.stop()
            throw error
        }
        let present: Bool
        do {
            // Bounded: a server that dies mid-migration must not hold the run at its start.
            present = try await Bounded.within(.seconds(settings.connectTimeout + 2) + PostgresCalls.defaultQueryLimit)
            {
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
        let tls = try PostgresConnections.clientTLS(settings)
        if let socket = PostgresConnections.socketPath(settings) {
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
            + PostgresConnections.serverTimeouts + PostgresConnections.serverKeepalives
        // A batch writes from a few tasks at once; more connections than that only cost the server.
        configuration.options.maximumConnections = 8
        // An idle pooled connection whose server went away is found within seconds, before a write leases it.
        configuration.options.keepAliveBehavior = .init(frequency: .seconds(5))
        // On the store's own loop, where its calls run (`StoreLoop`).
        let client = PostgresClient(
            configuration: configuration, eventLoopGroup: StoreLoop.group, backgroundLogger: logger)
        self.client = client
        calls = PostgresCalls(
            client: client, location: location, pauses: pauses, logger: logger, connectTimeout: settings.connectTimeout)
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
        _ = try? await Bounded.within(.seconds(5)) { await runner.value }
    }

    /// Runs `body` on a pooled connection, turning every failure into a `RunStoreError` (`PostgresCalls`).
    @discardableResult
    func withConnection<T: Sendable>(
        _ doing: String,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(RunStoreError) -> T {
        try await calls.withConnection(doing, body)
    }

    /// Runs `body` in a transaction on a pooled connection (committed when it returns, rolled back when it throws).
    func transaction<T: Sendable>(
        _ doing: String,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(RunStoreError) -> T {
        try await calls.transaction(doing, body)
    }
}
