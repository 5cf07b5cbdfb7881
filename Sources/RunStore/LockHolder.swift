import Foundation

/// Who holds a pipeline's run lock: what a second run prints when it is turned away.
public struct LockHolder: Sendable, Equatable, CustomStringConvertible {
    /// The holder's process id.
    public var pid: Int32
    /// The machine it runs on.
    public var host: String
    /// When it took the lock (seconds since the Unix epoch).
    public var startedAt: Double

    /// Creates a holder.
    public init(pid: Int32, host: String, startedAt: Double) {
        self.pid = pid
        self.host = host
        self.startedAt = startedAt
    }

    /// The holder of a lock taken now by this process.
    public static func current(now: Double) -> LockHolder {
        LockHolder(pid: getpid(), host: ProcessInfo.processInfo.hostName, startedAt: now)
    }

    /// `pid 123 on build-7, started 2026-11-22T04:12:00Z`.
    public var description: String {
        "pid \(pid) on \(host), started \(RunID.iso(startedAt))"
    }
}
