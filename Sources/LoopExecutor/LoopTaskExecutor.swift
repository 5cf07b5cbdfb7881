import NIOCore

/// An event loop as a `TaskExecutor`: jobs of tasks that prefer it run on the loop's thread.
///
/// A task that awaits what a loop's channels answer (an HTTP client's requests, a database's queries) and prefers
/// that loop resumes on it without waking another thread for each answer.
package final class LoopTaskExecutor: TaskExecutor {
    private let loop: any EventLoop

    /// An executor that runs its jobs on `loop`.
    package init(_ loop: any EventLoop) {
        self.loop = loop
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
