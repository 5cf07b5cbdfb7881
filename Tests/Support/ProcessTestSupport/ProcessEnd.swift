import CProcessControl

#if canImport(Glibc)
    import Glibc
#endif

/// Waiting for a process that is not ours to end (a plugin's child, or a plugin whose `pushline` was killed: init
/// reaps those), by the kernel's word rather than by polling: a pidfd becomes readable when its process exits.
public enum ProcessEnd {
    /// True when process `pid` has ended within `limit` (exited, whether or not its parent has reaped it yet), or was
    /// gone already; false when it still runs at the end of `limit`.
    public static func wait(for pid: Int32, within limit: Duration) -> Bool {
        #if os(Linux)
            let descriptor = pushline_pidfd_open(pid)
            guard descriptor >= 0 else { return errno == ESRCH }
            defer { close(descriptor) }
            let deadline = ContinuousClock.now + limit
            while true {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return false }
                var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let milliseconds = Int32(
                    clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
                let ready = poll(&watched, 1, milliseconds)
                if ready > 0 { return true }
                // Interrupted by a signal: wait out what is left.
                if ready < 0, errno == EINTR { continue }
                if ready < 0 { return false }
            }
        #else
            fatalError("ProcessEnd needs Linux's pidfd")
        #endif
    }
}
