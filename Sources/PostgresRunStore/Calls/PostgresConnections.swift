import Foundation
import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import RunStore

/// Connections of their own (schema preparation, run locks, a query's database) and the TLS settings every
/// connection to a store is made with, from a `postgres://` URL as libpq reads it.
package enum PostgresConnections {
    /// A direct connection (not pooled): schema preparation and run locks use one each.
    package static func connect(_ settings: PostgresLocation, doing: String, role: String? = nil)
        async throws(RunStoreError) -> PostgresConnection
    {
        var configuration: PostgresConnection.Configuration
        let tls = try connectionTLS(settings)
        if let socket = socketPath(settings) {
            configuration = PostgresConnection.Configuration(
                unixSocketPath: socket, username: settings.user,
                password: settings.password, database: settings.database)
        } else {
            configuration = PostgresConnection.Configuration(
                host: settings.host ?? "", port: settings.port, username: settings.user,
                password: settings.password, database: settings.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(Int64(settings.connectTimeout))
        // `pg_stat_activity` tells a run lock's connection from the others: `pushline (run lock)`.
        configuration.options.additionalStartupParameters =
            [("application_name", settings.applicationName + (role.map { " (\($0))" } ?? ""))]
            + serverKeepalives
        let logger = Logger(label: "pushline.run-store", factory: { _ in SwiftLogNoOpLogHandler() })
        let configured = configuration
        do {
            let limit = Duration.seconds(settings.connectTimeout + 5)
            // A connection made after the limit passed is closed, not left open to the server.
            return try await Bounded.within(limit, late: { connection in try? await connection.close() }) {
                try await PostgresConnection.connect(configuration: configured, id: 1, logger: logger)
            }
        } catch let deadline as StoreDeadline {
            throw RunStoreError(
                "cannot reach the run store at \(settings) within \(deadline.limit); "
                    + "it is down or unreachable: run again once it is back", kind: .unavailable)
        } catch {
            throw PostgresFailure.storeError(error, location: settings.description, doing: doing)
        }
    }

    static func socketPath(_ settings: PostgresLocation) -> String? {
        settings.socketDirectory.map { "\($0)/.s.PGSQL.\(settings.port)" }
    }

    /// libpq's sslmode as NIOSSL settings: `prefer` and `require` do not check the certificate (as in libpq),
    /// `verify-ca` checks the chain, `verify-full` the chain and the host name.
    static func tlsConfiguration(_ settings: PostgresLocation) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch settings.tls {
        case .disable, .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let root = settings.rootCertificate { tls.trustRoots = .file(root) }
        return tls
    }

    static func clientTLS(_ settings: PostgresLocation) throws(RunStoreError) -> PostgresClient.Configuration.TLS {
        switch settings.tls {
        case .disable: .disable
        case .prefer: .prefer(tlsConfiguration(settings))
        case .require, .verifyCA, .verifyFull: .require(tlsConfiguration(settings))
        }
    }

    static func connectionTLS(_ settings: PostgresLocation) throws(RunStoreError)
        -> PostgresConnection.Configuration.TLS
    {
        guard settings.tls != .disable else { return .disable }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: tlsConfiguration(settings))
        } catch {
            throw RunStoreError(
                "the TLS settings of the run store at \(settings) are unusable (sslrootcert?): \(error)",
                kind: .configuration)
        }
        return settings.tls == .prefer ? .prefer(context) : .require(context)
    }

    /// Session settings of pooled connections, so the server itself ends what the client gave up on: a statement
    /// stops before `defaultQueryLimit` passes, and a transaction left open by a caller that is gone is rolled back.
    static let serverTimeouts = [("statement_timeout", "25s"), ("idle_in_transaction_session_timeout", "30s")]
    /// The server probes an idle client after 10 s and drops it after 3 missed probes 5 s apart, so a run lock
    /// held by a machine that vanished (no FIN, no RST) is freed in about 25 s rather than the kernel's 2 hours.
    static let serverKeepalives = [
        ("tcp_keepalives_idle", "10"), ("tcp_keepalives_interval", "5"), ("tcp_keepalives_count", "3"),
    ]
}
