import Dispatch
import Foundation
import PipelineCore
import RunStore
import Synchronization
import Testing

@testable import SQLiteRunStore

/// A journal call that waits on the file (another process's write transaction, for up to the busy timeout) waits on
/// the journal's own queue, never on the thread it was called from: during a send that thread is an event loop of the
/// HTTP client, and every request in flight on it would stall.
@Suite struct JournalWaitTests {
    @Test("a ledger write waiting on another process's write lock leaves the caller's thread free for other work")
    func aWaitOnTheFileHoldsNoCallersThread() async throws {
        try await withTemporaryDirectory { directory in
            // A wait far longer than this test needs: on a machine busy with other tests, the lock may be held for
            // more than the default 5 s before this test gets to release it, and a timeout is not what is tested.
            let journal = try Journal(path: directory + "/journal.sqlite", busyTimeoutMilliseconds: 120_000)
            let run = try await journal.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let ledger = journal.ledger(run: run.id)
            // Another process's write transaction, on a connection of its own.
            let other = try SQLiteConnection(path: directory + "/journal.sqlite")
            try other.execute("BEGIN IMMEDIATE")

            // One thread, as an event loop is, that the write is called from.
            let loop = OneThread()
            let (started, began) = AsyncStream.makeStream(of: Void.self)
            let finished = Flag()
            let write = Task(executorPreference: loop) {
                began.yield()
                // Nothing between here and the wait on the lock gives the thread up, unless the call hops off it.
                try await ledger.markSending([item(0, 1)])
                finished.set()
            }
            for await _ in started { break }
            // Other work for the same thread: it runs while the write still waits for the lock.
            let ranDuringTheWait = await Task(executorPreference: loop) {
                !finished.isSet
            }.value
            #expect(ranDuringTheWait, "the thread the write was called from was held until the write ended")

            try other.execute("COMMIT")
            try await write.value
            #expect(try await ledger.entry(LedgerKey(step: 0, row: 1))?.state == .sending)
        }
    }
}

/// A flag set by one task and read by another.
private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// A task executor with one thread: a job that blocks holds up every job after it, as on an event loop.
private final class OneThread: TaskExecutor {
    private let queue = DispatchQueue(label: "one-thread")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
