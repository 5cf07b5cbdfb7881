/// A held run lock: while it is held no other run of the same pipeline starts, on this machine or (for a
/// shared store) on any other. Its holder's end releases it too, however it ends.
package protocol RunLock: AnyObject, Sendable {
    /// Who holds it (this process).
    var holder: LockHolder { get }
    /// Releases the lock. Calling it twice is harmless.
    func release() async
}
