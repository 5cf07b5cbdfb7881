import Foundation
import HubExpressions
import PasswordHashing
import PipelineCore

/// The device users of an htpasswd file: one `name:hash` line each, bcrypt hashes only (`htpasswd -B`).
///
/// Reading it reports every unusable line with its `file:line:column`; the hashes stay in memory only.
public struct UserDirectory: Sendable {
    private let hashes: [String: String]

    /// Users by name and bcrypt hash (tests).
    public init(hashes: [String: String]) {
        self.hashes = hashes
    }

    /// How many users it holds.
    public var count: Int { hashes.count }

    /// The bcrypt hash for `user`, if the user exists.
    func hash(for user: String) -> String? { hashes[user] }

    /// Reads `path`; nil after reporting when it cannot be read at all. `reference` is where the service file names it.
    public static func load(path: String, identityTagPrefix: String, reference: SourceLocation?,
                            diagnostics: DiagnosticCollector) -> UserDirectory? {
        let text: String
        do {
            text = try TextFile.read(path, limit: 4 << 20)
        } catch {
            diagnostics.error(error.message(what: "users file", name: path), at: reference,
                              hint: "create it with `htpasswd -B -c \(path) alice`")
            return nil
        }
        diagnostics.register(source: text, for: path)
        var hashes: [String: String] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            let at = SourceLocation(file: path, line: index + 1, column: 1)
            guard let colon = trimmed.firstIndex(of: ":") else {
                diagnostics.error("a users line must be `name:hash`", at: at, hint: "write it with `htpasswd -B \(path) NAME`")
                continue
            }
            let name = String(trimmed[..<colon])
            let hash = String(trimmed[trimmed.index(after: colon)...])
            if let problem = TagSyntax.problem(with: identityTagPrefix + name) {
                diagnostics.error("user name '\(name)' cannot be part of a tag: \(problem)", at: at,
                                  hint: "user names may use letters, digits and _ @ # . : -")
                continue
            }
            // The message never shows the hash: it is as good as a password to an offline attacker.
            guard PasswordHash.isSupported(hash) else {
                diagnostics.error("user '\(name)': the password is not a bcrypt hash", at: at,
                                  hint: "Pushline accepts bcrypt only: `htpasswd -B \(path) \(name)`")
                continue
            }
            if hashes[name] != nil {
                diagnostics.error("user '\(name)' is listed twice", at: at, hint: "keep one line per user")
                continue
            }
            hashes[name] = hash
        }
        return UserDirectory(hashes: hashes)
    }
}
