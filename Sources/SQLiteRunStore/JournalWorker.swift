import Dispatch
import RunStore

/// The journal's connection and the one place it is used: every call of a `Journal` and its ledgers runs here, on a
/// serial queue of the journal's own.
///
/// A SQLite call can wait: up to the busy timeout (5 s) for another process's write transaction, or on the disk.
/// Run where its caller runs, that wait would hold the caller's thread — during a send, an event loop of the HTTP
/// client, stalling every request in flight on it past its time limit, or one of the few threads Swift's tasks share.
/// Here it holds only the journal's queue; callers suspend until their turn and their answer.
actor JournalWorker {
    /// The queue every job of this actor runs on.
    private nonisolated let queue: JournalQueue
    /// The connection, used by one job at a time.
    private let connection: SQLiteConnection

    nonisolated var unownedExecutor: UnownedSerialExecutor { queue.asUnownedSerialExecutor() }

    init(connection: sending SQLiteConnection, label: String) {
        self.connection = connection
        queue = JournalQueue(label: label)
    }

    /// Runs `body` with the connection, on the journal's queue.
    func run<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws(RunStoreError) -> T) throws(RunStoreError) -> T {
        try body(connection)
    }
}

/// A serial executor on a dispatch queue of its own: not the task pool's threads, not an event loop's.
final class JournalQueue: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
