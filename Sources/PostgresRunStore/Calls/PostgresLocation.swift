import Foundation
import RunStore

/// Where a PostgreSQL run store is: a `postgres://` URL read the way libpq reads it, with the password kept
/// apart so that nothing printed (`description`, errors, reports) can carry it.
///
/// `postgres://USER[:PASSWORD]@HOST[:PORT][/DATABASE][?sslmode=…&sslrootcert=…&connect_timeout=…&application_name=…]`.
/// `postgresql://` is the same. A `host=/dir` parameter names a Unix socket directory, as in libpq. The
/// password comes from the URL, else `$PGPASSWORD`; in either place it may be `${file:PATH}` (a mounted
/// secret, trailing newline dropped) or `${env:NAME}`.
package struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is encrypted, as libpq's `sslmode` says it.
    package enum TLSMode: String, Sendable, CaseIterable {
        /// Never.
        case disable
        /// Encrypt when the server offers it (libpq's default), without checking its certificate.
        case prefer
        /// Always, without checking the certificate (libpq's meaning).
        case require
        /// Always, checking the certificate chain but not the host name.
        case verifyCA = "verify-ca"
        /// Always, checking the chain and that it names the host.
        case verifyFull = "verify-full"
    }

    /// The login name.
    package var user: String
    /// The password; nil when neither the URL nor `$PGPASSWORD` gives one. Never printed.
    package var password: String?
    /// The host name or address; nil with a Unix socket.
    package var host: String?
    /// The port.
    package var port: Int
    /// The Unix socket directory (`?host=/var/run/postgresql`), when not over TCP.
    package var socketDirectory: String?
    /// The database.
    package var database: String
    /// Encryption.
    package var tls: TLSMode
    /// A PEM file of the CAs that may sign the server's certificate (`sslrootcert`).
    package var rootCertificate: String?
    /// How long connecting may take, in seconds (`connect_timeout`; 10 when not given).
    package var connectTimeout: Int
    /// What `pg_stat_activity` shows for the connection.
    package var applicationName: String

    /// True when `text` names a PostgreSQL store rather than a SQLite file.
    package static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Reads `url`; `environment` supplies `PGPASSWORD` and `${env:}`. Throws a configuration error that never
    /// repeats the password.
    /// With `resolvingPassword` off, a `${file:}` or `${env:}` password is left unread (for naming the store only).
    package init(_ url: String, environment: [String: String], resolvingPassword: Bool = true) throws(RunStoreError) {
        guard Self.isURL(url), let schemeEnd = url.range(of: "://") else {
            throw Self.invalid("a PostgreSQL run store is given as postgres://USER@HOST:PORT/DATABASE")
        }
        let afterScheme = Substring(url[schemeEnd.upperBound...])
        // The authority ends at the first `/` or `?` outside a `${…}` reference, so a password written as
        // `${file:/run/secrets/pg}` keeps its slashes.
        var end = afterScheme.startIndex
        var inReference = false
        while end < afterScheme.endIndex {
            let character = afterScheme[end]
            if inReference {
                if character == "}" { inReference = false }
            } else if character == "$", afterScheme[afterScheme.index(after: end)...].hasPrefix("{") {
                inReference = true
            } else if character == "/" || character == "?" {
                break
            }
            end = afterScheme.index(after: end)
        }
        var rest = afterScheme[..<end]
        var tail = afterScheme[end...]
        // An `@` after the authority means a password with a raw `@` and `/` or `?`: read naively, part of it would
        // become the host and be printed. Refused without repeating any of the URL.
        if tail.contains("@") || rest.filter({ $0 == "@" }).count > 1 {
            throw Self.invalid(
                "the run store URL has an '@' where none can be; percent-encode '@', '/' and '?' in the user "
                    + "name and password (%40, %2F, %3F), or give the password in PGPASSWORD")
        }
        var query = Substring("")
        if let mark = tail.firstIndex(of: "?") {
            query = tail[tail.index(after: mark)...]
            tail = tail[..<mark]
        }
        let path = tail.drop { $0 == "/" }
        var userInfo: Substring?
        if let at = rest.lastIndex(of: "@") {
            userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
        }
        var urlPassword: String?
        var user = ""
        if let userInfo {
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decode(userInfo[..<colon], what: "user name")
                urlPassword = try Self.decode(userInfo[userInfo.index(after: colon)...], what: "password")
            } else {
                user = try Self.decode(userInfo, what: "user name")
            }
        }
        var hostText = String(rest)
        var port = 5432
        if hostText.hasPrefix("[") {
            guard let close = hostText.firstIndex(of: "]") else {
                throw Self.invalid("the IPv6 address in the run store URL has no closing ]")
            }
            let after = hostText[hostText.index(after: close)...]
            if after.hasPrefix(":") {
                port = try Self.port(after.dropFirst())
            } else if !after.isEmpty {
                throw Self.invalid("unexpected text after the IPv6 address in the run store URL")
            }
            hostText = String(hostText[hostText.index(after: hostText.startIndex)..<close])
        } else if let colon = hostText.lastIndex(of: ":") {
            port = try Self.port(hostText[hostText.index(after: colon)...])
            hostText = String(hostText[..<colon])
        }
        let database = try Self.decode(path, what: "database name")
        var tls = TLSMode.prefer
        var rootCertificate: String?
        var connectTimeout = 10
        var applicationName = "pushline"
        var socketDirectory: String?
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let value = try Self.decode(parts.count > 1 ? parts[1] : "", what: "value of \(name)")
            switch name {
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else {
                    throw Self.invalid(
                        "sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", ")); got '\(value)'"
                    )
                }
                tls = mode
            case "sslrootcert": rootCertificate = value
            case "connect_timeout":
                guard let seconds = Int(value), seconds > 0, seconds <= 600 else {
                    throw Self.invalid("connect_timeout is a number of seconds from 1 to 600; got '\(value)'")
                }
                connectTimeout = seconds
            case "application_name": applicationName = value
            case "host":
                guard value.hasPrefix("/") else {
                    throw Self.invalid("the host parameter names a Unix socket directory (an absolute path)")
                }
                socketDirectory = value
            case "password":
                throw Self.invalid(
                    "a password in the URL's query would be logged with it; put it before the @, in PGPASSWORD, or as ${file:PATH}"
                )
            default:
                throw Self.invalid(
                    "the run store URL has an unknown parameter '\(name)' "
                        + "(known: sslmode, sslrootcert, connect_timeout, application_name, host)")
            }
        }
        if let environmentUser = environment["PGUSER"], user.isEmpty { user = environmentUser }
        guard !user.isEmpty else {
            throw Self.invalid("the run store URL names no user: postgres://USER@HOST/DATABASE")
        }
        guard socketDirectory != nil || !hostText.isEmpty else {
            throw Self.invalid("the run store URL names no host: postgres://USER@HOST/DATABASE")
        }
        self.user = user
        self.host = hostText.isEmpty ? nil : hostText
        self.port = port
        self.socketDirectory = socketDirectory
        self.database = database.isEmpty ? user : database
        self.tls = tls
        self.rootCertificate = rootCertificate
        self.connectTimeout = connectTimeout
        self.applicationName = applicationName
        self.password =
            resolvingPassword
            ? try Self.resolvePassword(urlPassword ?? environment["PGPASSWORD"], environment: environment) : nil
    }

    /// `postgres://pushline@db.internal:5432/pushline`: what messages name the store by, never with the password.
    package var description: String {
        let place: String
        if let socketDirectory {
            place = "@/\(database)?host=\(socketDirectory)"
        } else {
            let shownHost = (host ?? "").contains(":") ? "[\(host ?? "")]" : (host ?? "")
            place = "@\(shownHost):\(port)/\(database)"
        }
        return "postgres://\(user)" + place
    }

    /// The password, read from `${file:}` or `${env:}` when written as a reference.
    private static func resolvePassword(_ given: String?, environment: [String: String]) throws(RunStoreError)
        -> String?
    {
        guard let given, !given.isEmpty else { return nil }
        if given.hasPrefix("${file:"), given.hasSuffix("}") {
            let path = String(given.dropFirst(7).dropLast())
            guard let data = FileManager.default.contents(atPath: path), var text = String(data: data, encoding: .utf8)
            else {
                throw RunStoreError("cannot read the run store's password file \(path)", kind: .configuration)
            }
            while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
            guard !text.isEmpty else {
                throw RunStoreError("the run store's password file \(path) is empty", kind: .configuration)
            }
            return text
        }
        if given.hasPrefix("${env:"), given.hasSuffix("}") {
            let name = String(given.dropFirst(6).dropLast())
            guard let value = environment[name], !value.isEmpty else {
                throw RunStoreError(
                    "the run store's password names ${env:\(name)}, which is not set", kind: .configuration)
            }
            return value
        }
        return given
    }

    private static func port(_ text: Substring) throws(RunStoreError) -> Int {
        guard let value = Int(text), (1...65535).contains(value) else {
            throw invalid("the port in the run store URL must be a number from 1 to 65535")
        }
        return value
    }

    /// Percent-decodes a URL part; a malformed escape is an error naming what it was (never its text, which may
    /// be the password).
    private static func decode(_ text: Substring, what: String) throws(RunStoreError) -> String {
        guard let decoded = String(text).removingPercentEncoding else {
            throw invalid("the \(what) in the run store URL has a malformed %-escape")
        }
        return decoded
    }

    private static func invalid(_ message: String) -> RunStoreError {
        RunStoreError(message, kind: .configuration)
    }
}
