import Synchronization

/// What inner middleware learns about a request that the outermost one logs: who the caller turned out to be.
final class RequestNotes: Sendable {
    private let stored = Mutex<Caller?>(nil)

    /// The caller authentication found; nil until it has (or when it refused).
    var caller: Caller? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
