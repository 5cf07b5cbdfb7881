import HummingbirdBasicAuth
import HummingbirdBcrypt

/// bcrypt password hashes, as `htpasswd -B` writes them: the one place that imports a bcrypt implementation.
package enum PasswordHash {
    /// True when `hash` is a bcrypt hash this can check (`$2a$`, `$2b$` or `$2y$`, cost 4–31).
    package static func isSupported(_ hash: String) -> Bool {
        let normalized = normalize(hash)
        guard normalized.hasPrefix("$2a$") || normalized.hasPrefix("$2b$"), normalized.utf8.count == 60 else {
            return false
        }
        let cost = normalized.dropFirst(4).prefix(2)
        guard let rounds = Int(cost), (4...31).contains(rounds), normalized.dropFirst(6).first == "$" else {
            return false
        }
        return true
    }

    /// True when `password` hashes to `hash`. bcrypt is slow on purpose (tens of milliseconds at cost 10), so the
    /// work runs on NIO's blocking thread pool (hummingbird-auth's verifier), never on the cooperative pool where it
    /// would stall other requests. A pool that has shut down checks nothing: false.
    package static func verify(_ password: String, against hash: String) async -> Bool {
        guard isSupported(hash) else { return false }
        return (try? await BcryptPasswordVerifier().verifyPassword(password, createsHash: normalize(hash))) ?? false
    }

    /// A new `$2b$` hash of `password` at `cost` (4–31; 10 or more for real use).
    package static func make(_ password: String, cost: Int = 10) -> String {
        Bcrypt.hash(password, cost: UInt8(min(max(cost, 4), 31)))
    }

    /// `$2y$` (PHP's and Apache's name for the fixed algorithm) is `$2b$`; the library knows only the latter.
    private static func normalize(_ hash: String) -> String {
        hash.hasPrefix("$2y$") ? "$2b$" + hash.dropFirst(4) : hash
    }
}
