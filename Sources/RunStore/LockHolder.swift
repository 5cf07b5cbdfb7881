import Foundation

/// Who holds a pipeline's run lock: what a second run prints when it is turned away.
package struct LockHolder: Sendable, Equatable, CustomStringConvertible {
    /// The holder's process id.
    package var pid: Int32
    /// The machine it runs on.
    package var host: String
    /// When it took the lock (seconds since the Unix epoch).
    package var startedAt: Double

    /// Creates a holder.
    package init(pid: Int32, host: String, startedAt: Double) {
        self.pid = pid
        self.host = host
        self.startedAt = startedAt
    }

    /// The holder of a lock taken now by this process.
    package static func current(now: Double) -> LockHolder {
        LockHolder(pid: getpid(), host: ProcessInfo.processInfo.hostName, startedAt: now)
    }

    /// `pid 123 on build-7, started 2026-11-22T04:12:00Z`.
    package var description: String {
        "pid \(pid) on \(host), started \(RunID.iso(startedAt))"
    }
}
