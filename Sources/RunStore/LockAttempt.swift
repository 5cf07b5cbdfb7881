/// What asking for a pipeline's run lock came to.
package enum LockAttempt: Sendable {
    /// Taken: this run holds it until `release`.
    case acquired(any RunLock)
    /// Another run holds it; its holder when the store can say (nil when it cannot be read).
    case held(LockHolder?)
}
