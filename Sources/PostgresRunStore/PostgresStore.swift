import Foundation
import Logging
import NIOCore
import NIOSSL
import PipelineCore
import PostgresNIO
import RunStore

/// The run store in a PostgreSQL database: runs, items and run locks shared by every machine that names the
/// same database, so a run killed on one node resumes on another without sending twice.
///
/// Tables live in the schema `pushline`, created and migrated by the store itself (`PostgresSchema`). Every
/// write commits before its method returns. Locks are session advisory locks held on a connection of their
/// own, released by the server when the holder's process or connection dies, and fenced by an epoch that
/// every ledger write checks (`PostgresRunLock`).
public final class PostgresStore: RunStore {
    /// The URL without its password.
    public let location: String
    let settings: PostgresLocation
    let client: PostgresClient
    private let runner: Task<Void, Never>
    /// Logs nothing: PostgresNIO's messages may carry a query's values, and the store reports through errors.
    let logger = Logger(label: "pushline.run-store", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Connects to the store `url` names, creating or migrating its schema, and fails fast with a clear error
    /// when the server cannot be reached or rejects the login. `environment` supplies `PGPASSWORD`.
    ///
    /// With `create` off, a database without pushline's schema is left untouched and nil is returned (nothing has
    /// run there yet): what a dry run and the `runs` commands, which only read, want.
    public static func open(_ url: String, environment: [String: String], create: Bool = true) async throws(RunStoreError) -> PostgresStore? {
        let settings = try PostgresLocation(url, environment: environment)
        let location = settings.description
        // One direct connection first: a wrong password or an unknown database is an error now, not a pool
        // that retries in the background while a query waits.
        let connection = try await connect(settings, doing: "connecting")
        do {
            if create {
                try await PostgresSchema.prepare(connection, location: location)
            } else if try await !PostgresSchema.exists(connection, location: location) {
                try? await connection.close()
                return nil
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
        return try PostgresStore(settings: settings)
    }

    private init(settings: PostgresLocation) throws(RunStoreError) {
        self.settings = settings
        location = settings.description
        var configuration: PostgresClient.Configuration
        let tls = try Self.clientTLS(settings)
        if let socket = Self.socketPath(settings) {
            configuration = PostgresClient.Configuration(unixSocketPath: socket, username: settings.user, password: settings.password,
                                                         database: settings.database)
        } else {
            configuration = PostgresClient.Configuration(host: settings.host ?? "", port: settings.port, username: settings.user,
                                                         password: settings.password, database: settings.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(Int64(settings.connectTimeout))
        configuration.options.additionalStartupParameters = [("application_name", settings.applicationName)]
        // A batch writes from a few tasks at once; more connections than that only cost the server.
        configuration.options.maximumConnections = 8
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        runner = Task { await client.run() }
    }

    deinit {
        runner.cancel()
    }

    /// Closes the store's connections. Locks are released by their own `release`.
    public func close() async {
        runner.cancel()
        await runner.value
    }

    /// How long one call may wait for a connection and its answer before the store counts as unreachable: the
    /// pool keeps retrying a server that is down, and a run must stop with a resumable error instead of hanging.
    var deadline: Duration { .seconds(settings.connectTimeout + 20) }

    /// Runs `body` on a pooled connection, within `deadline`, turning every failure into a `RunStoreError`.
    func withConnection<T: Sendable>(_ doing: String,
                                     _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(RunStoreError) -> T {
        let client = client
        do {
            return try await Self.within(deadline) {
                try await client.withConnection { connection in try await body(connection) }
            }
        } catch {
            throw PostgresFailure.storeError(error, location: location, doing: doing)
        }
    }

    /// Runs `body` in a transaction on a pooled connection (committed when it returns, rolled back when it throws).
    func transaction<T: Sendable>(_ doing: String,
                                  _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(RunStoreError) -> T {
        let logger = logger
        return try await withConnection(doing) { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let value = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// `body`'s result, or `StoreDeadline` once `limit` passes (then `body` is cancelled).
    static func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw StoreDeadline(limit: limit)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    /// A direct connection (not pooled): schema preparation and run locks use one each.
    static func connect(_ settings: PostgresLocation, doing: String, role: String? = nil) async throws(RunStoreError) -> PostgresConnection {
        var configuration: PostgresConnection.Configuration
        let tls = try connectionTLS(settings)
        if let socket = socketPath(settings) {
            configuration = PostgresConnection.Configuration(unixSocketPath: socket, username: settings.user,
                                                             password: settings.password, database: settings.database)
        } else {
            configuration = PostgresConnection.Configuration(host: settings.host ?? "", port: settings.port, username: settings.user,
                                                             password: settings.password, database: settings.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(Int64(settings.connectTimeout))
        // `pg_stat_activity` tells a run lock's connection from the others: `pushline (run lock)`.
        configuration.options.additionalStartupParameters = [("application_name", settings.applicationName + (role.map { " (\($0))" } ?? ""))]
        let logger = Logger(label: "pushline.run-store", factory: { _ in SwiftLogNoOpLogHandler() })
        let configured = configuration
        do {
            let limit = Duration.seconds(settings.connectTimeout + 5)
            return try await within(limit) {
                try await PostgresConnection.connect(configuration: configured, id: 1, logger: logger)
            }
        } catch let deadline as StoreDeadline {
            throw RunStoreError("cannot reach the run store at \(settings) within \(deadline.limit); "
                + "it is down or unreachable: run again once it is back", kind: .unavailable)
        } catch {
            throw PostgresFailure.storeError(error, location: settings.description, doing: doing)
        }
    }

    private static func socketPath(_ settings: PostgresLocation) -> String? {
        settings.socketDirectory.map { "\($0)/.s.PGSQL.\(settings.port)" }
    }

    /// libpq's sslmode as NIOSSL settings: `prefer` and `require` do not check the certificate (as in libpq),
    /// `verify-ca` checks the chain, `verify-full` the chain and the host name.
    private static func tlsConfiguration(_ settings: PostgresLocation) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch settings.tls {
        case .disable, .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let root = settings.rootCertificate { tls.trustRoots = .file(root) }
        return tls
    }

    private static func clientTLS(_ settings: PostgresLocation) throws(RunStoreError) -> PostgresClient.Configuration.TLS {
        switch settings.tls {
        case .disable: .disable
        case .prefer: .prefer(tlsConfiguration(settings))
        case .require, .verifyCA, .verifyFull: .require(tlsConfiguration(settings))
        }
    }

    private static func connectionTLS(_ settings: PostgresLocation) throws(RunStoreError) -> PostgresConnection.Configuration.TLS {
        guard settings.tls != .disable else { return .disable }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: tlsConfiguration(settings))
        } catch {
            throw RunStoreError("the TLS settings of the run store at \(settings) are unusable (sslrootcert?): \(error)",
                                kind: .configuration)
        }
        return settings.tls == .prefer ? .prefer(context) : .require(context)
    }
}

/// A store call that outlived its deadline.
struct StoreDeadline: Error {
    let limit: Duration
}
