import HubExpressions

/// Which client tags a registration keeps: the server adds the caller's identity tag itself and keeps only client
/// tags the service file allows. Anything that names another user, a `$` special tag or an expression is refused
/// with a reason, never dropped silently.
struct TagPolicy: Sendable {
    let identityPrefix: String
    let allowed: TagPattern?
    let maxTags: Int

    /// True when `tag` has the identity prefix, in any letter case.
    func isIdentityTag(_ tag: String) -> Bool {
        tag.lowercased().hasPrefix(identityPrefix.lowercased())
    }

    /// The caller's own tag (`username:alice`).
    func identityTag(for user: String) -> String { identityPrefix + user }

    /// The tags to register for `user`: the identity tag first, then the client's, once each.
    func tags(for user: String, client: [String]) throws(Problem) -> [String] {
        let own = identityTag(for: user)
        var kept = [own]
        for tag in client {
            if tag == own || kept.contains(tag) { continue }
            // Compared without case: NH may match tags so, and `USERNAME:bob` must not reach bob's notifications.
            if isIdentityTag(tag) {
                throw .forbidden("the tag '\(tag)' names another user; the server adds your own '\(own)' itself")
            }
            if tag.hasPrefix("$") {
                throw .unprocessable("'\(tag)' is a special tag ($…) that only the service sets")
            }
            if tag.contains(where: { "&|!() ".contains($0) }) {
                throw .unprocessable("'\(tag)' is a tag expression, not a tag: send each tag on its own")
            }
            if let problem = TagSyntax.problem(with: tag) {
                throw .unprocessable("'\(tag)' is not a valid tag: \(problem)")
            }
            guard let allowed, allowed.matches(tag) else {
                throw .unprocessable(
                    "the tag '\(tag)' is not one this service allows"
                        + (allowed.map { " (allowed tags match \($0.pattern))" } ?? " (it allows no client tags)"))
            }
            kept.append(tag)
        }
        guard kept.count <= maxTags else {
            throw .unprocessable(
                "a registration may carry at most \(maxTags) tags, the identity tag included; this one has \(kept.count)"
            )
        }
        return kept
    }
}
