import Synchronization

/// Asks a running pipeline to stop starting new items (SIGINT/SIGTERM). Items in flight finish and
/// are journalled; the run ends resumable.
public final class StopSignal: Sendable {
    private let requested = Atomic<Bool>(false)

    /// Creates a signal that has not fired.
    public init() {}

    /// Fires the signal; later calls do nothing more.
    public func request() { requested.store(true, ordering: .relaxed) }

    /// True once fired.
    public var isRequested: Bool { requested.load(ordering: .relaxed) }
}
