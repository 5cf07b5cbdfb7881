import PostgresNIO
import RunStore

/// PostgreSQL's errors as `RunStoreError`s a person can act on, sorted into what retrying fixes and what it
/// does not.
///
/// PostgresNIO's own description of an error is deliberately generic (it could carry a query's values); the
/// server's SQLSTATE and message are read instead. Nothing here prints the URL's password: `location` is the
/// store's `description`.
enum PostgresFailure {
    /// The store error for `error`, met while `doing` something with the store at `location`; `pauses`, the store's
    /// watch of this process, tells a call cut short because the process stood still from a store that was down.
    static func storeError(_ error: any Error, location: String, doing: String, pauses: ProcessPauses? = nil)
        -> RunStoreError
    {
        if let known = error as? RunStoreError { return known }
        if let deadline = error as? StoreDeadline {
            if let pause = pauses?.longest(since: deadline.started) {
                return paused(doing: doing, location: location, pause: pause)
            }
            return RunStoreError(
                "\(doing) in the run store at \(location) got no answer within \(deadline.limit); "
                    + "it is down or unreachable: run again once it is back, and the run resumes", kind: .unavailable)
        }
        if error is CancellationError {
            return RunStoreError("\(doing) in the run store at \(location) was cancelled", kind: .unavailable)
        }
        if let transaction = error as? PostgresTransactionError {
            let inner =
                transaction.closureError ?? transaction.commitError ?? transaction.beginError
                ?? transaction.rollbackError
            if let inner { return storeError(inner, location: location, doing: doing, pauses: pauses) }
        }
        guard let psql = error as? PSQLError else {
            return RunStoreError(
                "\(doing) in the run store at \(location) failed: \(String(describing: type(of: error)))",
                kind: .unavailable)
        }
        switch psql.code {
        case .server:
            let state = psql.serverInfo?[.sqlState] ?? ""
            let message = psql.serverInfo?[.message] ?? "no message"
            return server(state: state, message: message, location: location, doing: doing)
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection, .poolClosed,
            .queryCancelled:
            return RunStoreError(
                "cannot reach the run store at \(location) (\(describe(psql))); "
                    + "it is down or unreachable: run again once it is back, and the run resumes", kind: .unavailable)
        case .sslUnsupported:
            return RunStoreError(
                "the PostgreSQL server at \(location) does not offer TLS, which sslmode requires; "
                    + "enable TLS on the server, or use sslmode=prefer or sslmode=disable on a trusted network",
                kind: .configuration)
        case .authMechanismRequiresPassword:
            return RunStoreError(
                "the PostgreSQL server at \(location) asks for a password and none was given; "
                    + "give it in the URL, in PGPASSWORD, or as ${file:PATH}", kind: .configuration)
        case .unsupportedAuthMechanism, .saslError:
            return RunStoreError(
                "the PostgreSQL server at \(location) rejected the login (\(psql.code)); "
                    + "check the user and password", kind: .configuration)
        case .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
            return RunStoreError(
                "TLS with the run store at \(location) failed (\(psql.code)); check sslmode and sslrootcert",
                kind: .configuration)
        default:
            return RunStoreError("\(doing) in the run store at \(location) failed (\(psql.code))", kind: .failure)
        }
    }

    /// A call that failed as if the store were down, while in fact this process stood still for `pause` (its
    /// timer fired late, or the server ended a session that sat idle in a transaction meanwhile).
    static func paused(doing: String, location: String, pause: Duration) -> RunStoreError {
        RunStoreError(
            "\(doing) in the run store at \(location) was cut short: \(ProcessPauses.explanation(pause)) while it "
                + "waited, so the store may well be up. A pause longer than the run's lock lasts lets another run take the lock "
                + "over; this run then sends nothing more", kind: .unavailable,
            hint:
                "find what stopped this process (SIGSTOP, a frozen machine, a starved CPU); then run again, and the run resumes "
                + "where the journal says, unless another run already holds the lock and carries on")
    }

    /// The refusal of a write by a holder whose lock another process took over; when this process stood still
    /// within the last hour, that is why (it outlasted the lock's heartbeat).
    static func lostLock(location: String, pauses: ProcessPauses) -> RunStoreError {
        let why = pauses.latest(since: .now - .seconds(3600)).map { ", after " + ProcessPauses.explanation($0) } ?? ""
        return RunStoreError(
            "this run lost its lock in the run store at \(location): another process took it over\(why). "
                + "This run sends nothing more, so that two processes never send the same items; what it sent is in the journal, "
                + "and the run that holds the lock carries on from there", kind: .unavailable,
            hint: "nothing was lost: the run that took the lock over sends the rest; `pushline runs show` follows it")
    }

    /// An error the server sent, by its SQLSTATE class.
    static func server(state: String, message: String, location: String, doing: String) -> RunStoreError {
        switch state {
        case "28P01", "28000":
            return RunStoreError(
                "the PostgreSQL server at \(location) rejected the login: \(message); "
                    + "check the user and the password (URL, PGPASSWORD or ${file:PATH})", kind: .configuration)
        case "3D000":
            return RunStoreError(
                "\(message) on the PostgreSQL server at \(location); create it (createdb) or name another in the URL",
                kind: .configuration)
        case "42501":
            return RunStoreError(
                "\(doing) in the run store at \(location) was refused: \(message); "
                    + "the user needs CREATE on the database the first time (pushline creates its schema 'pushline'), "
                    + "then USAGE and read/write on that schema", kind: .configuration)
        case _
        where state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300" || state == "40001"
            || state == "40P01":
            // Connection exceptions, the server shutting down or starting, too many connections, serialisation
            // failures: all pass when tried again.
            return RunStoreError(
                "the run store at \(location) is unavailable: \(message) (SQLSTATE \(state)); run again to resume",
                kind: .unavailable)
        case _ where state.hasPrefix("53"):
            return RunStoreError(
                "the PostgreSQL server at \(location) is out of resources: \(message) (SQLSTATE \(state))",
                kind: .unavailable)
        default:
            return RunStoreError(
                "\(doing) in the run store at \(location) failed: \(message) (SQLSTATE \(state))", kind: .failure)
        }
    }

    /// A short cause for a connection error: the system's error text when there is one.
    private static func describe(_ error: PSQLError) -> String {
        if let underlying = error.underlying {
            let text = String(describing: underlying)
            // NIO's connect errors read `connection reset (error set): Connection refused (errno: 111)`; keep them short.
            return text.count > 160 ? String(text.prefix(160)) + "…" : text
        }
        return String(describing: error.code)
    }
}
