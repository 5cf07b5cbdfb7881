import Foundation
import HubExpressions
import PasswordHashing
import PipelineCore

/// The device users of an htpasswd file: one `name:hash` line each, bcrypt hashes only (`htpasswd -B`).
///
/// Reading it reports every unusable line with its `file:line:column`; the hashes stay in memory only.
public struct UserDirectory: Sendable {
    /// Hashes by the name's exact UTF-8 bytes: Swift's `==` on strings treats canonically equivalent names (a
    /// Kelvin sign and a K) as one, and a sign-in must match the name as written in the file.
    private let hashes: [[UInt8]: (name: String, hash: String)]

    /// Users by name and bcrypt hash (tests).
    public init(hashes: [String: String]) {
        self.hashes = Dictionary(uniqueKeysWithValues: hashes.map { (Array($0.key.utf8), ($0.key, $0.value)) })
    }

    /// How many users it holds.
    public var count: Int { hashes.count }

    /// The user named exactly `name` (byte for byte): the name as the file writes it, and its hash.
    func entry(for name: String) -> (name: String, hash: String)? { hashes[Array(name.utf8)] }

    /// The highest bcrypt cost among the hashes, so a check for an unknown user can cost as much.
    var highestCost: Int? { hashes.values.compactMap { Int($0.hash.dropFirst(4).prefix(2)) }.max() }

    /// Reads `path`; nil after reporting when it cannot be read at all. `reference` is where the service file names it.
    public static func load(
        path: String, identityTagPrefix: String, reference: SourceLocation?,
        diagnostics: DiagnosticCollector
    ) -> UserDirectory? {
        let text: String
        do {
            text = try TextFile.read(path, limit: 4 << 20)
        } catch {
            diagnostics.error(
                error.message(what: "users file", name: path), at: reference,
                hint: "create it with `htpasswd -B -c \(path) alice`")
            return nil
        }
        diagnostics.register(source: text, for: path)
        var hashes: [String: String] = [:]
        var folded: [String: String] = [:]
        // `isNewline`, not "\n": in Swift "\r\n" is one Character, so a CRLF file would otherwise be one line.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            let at = SourceLocation(file: path, line: index + 1, column: 1)
            guard let colon = trimmed.firstIndex(of: ":") else {
                diagnostics.error(
                    "a users line must be `name:hash`", at: at, hint: "write it with `htpasswd -B \(path) NAME`")
                continue
            }
            let name = String(trimmed[..<colon])
            let hash = String(trimmed[trimmed.index(after: colon)...])
            if let problem = TagSyntax.problem(with: identityTagPrefix + name) {
                diagnostics.error(
                    "user name '\(name)' cannot be part of a tag: \(problem)", at: at,
                    hint: "user names may use letters, digits and _ @ # . : -")
                continue
            }
            // The message never shows the hash: it is as good as a password to an offline attacker.
            guard PasswordHash.isSupported(hash) else {
                diagnostics.error(
                    "user '\(name)': the password is not a bcrypt hash", at: at,
                    hint: "Pushline accepts bcrypt only: `htpasswd -B \(path) \(name)`")
                continue
            }
            // NH may match tags without regard to case, so `Alice` and `alice` would share `username:alice`.
            if let other = folded[name.lowercased()] {
                diagnostics.error(
                    other == name
                        ? "user '\(name)' is listed twice"
                        : "users '\(other)' and '\(name)' differ only in letter case",
                    at: at, hint: "keep one line per user; user names must differ by more than case")
                continue
            }
            folded[name.lowercased()] = name
            if let cost = Int(hash.dropFirst(4).prefix(2)), cost < 10 {
                diagnostics.warning(
                    "user '\(name)': the bcrypt cost is \(cost); 10 or more resists offline guessing", at: at,
                    hint: "htpasswd -B -C 10 \(path) \(name)")
            }
            hashes[name] = hash
        }
        return UserDirectory(hashes: hashes)
    }
}
