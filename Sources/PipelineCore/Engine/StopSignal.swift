import Synchronization

/// Asks a running pipeline to stop starting new items (SIGINT/SIGTERM). Items in flight finish and
/// are journalled; the run ends resumable.
package final class StopSignal: Sendable {
    private let requested = Atomic<Bool>(false)

    /// Creates a signal that has not fired.
    package init() {}

    /// Fires the signal; later calls do nothing more.
    package func request() { requested.store(true, ordering: .relaxed) }

    /// True once fired.
    package var isRequested: Bool { requested.load(ordering: .relaxed) }
}
