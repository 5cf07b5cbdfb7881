import LoopExecutor
import NIOCore
import NIOPosix

/// The event loop of this process's PostgreSQL stores: one thread that every pooled connection lives on, and that
/// every store call's task runs on (`Bounded`).
///
/// A call is a few statements, each a write and a read on a connection. With the pool on NIO's shared loops and the
/// call's task on the cooperative pool, each statement's answer woke another thread: about half a journal write's
/// CPU went to waking threads and switching to them. On the connection's own thread the statements follow one
/// another without a switch. One thread is plenty: a process's journal writes come one transaction at a time.
enum StoreLoop {
    /// Never shut down: like NIO's singleton loops, it lives as long as the process.
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// The loop.
    static let loop: any EventLoop = group.next()
    /// The loop as a task executor.
    static let executor = LoopTaskExecutor(loop)
}
