import Logging
import Subprocess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// Stops a plugin's process group when `pushline` dies without stopping it (SIGKILL, a crash, the OOM killer), so a
/// plugin never outlives its run. A small `sh` watches a pipe whose only writer is this process: `release()` writes
/// `done` and the guard exits; when this process dies the kernel closes the pipe, the guard reads nothing, and it sends
/// the group SIGTERM, then SIGKILL five seconds later.
///
/// Why not `PR_SET_PDEATHSIG`: it needs code in the child between fork and exec, which the process API does not offer,
/// and it fires when the *thread* that started the child ends (a worker thread of the concurrency pool may), not the
/// process. A pipe's end is the process's, and works the same on macOS.
struct PluginGuard: Sendable {
    /// The guard: `$1` is the plugin's process group. It ignores SIGINT and SIGHUP, which a terminal sends to the
    /// whole foreground group (pushline stops the plugin itself then), and polls only during the grace. Signals are
    /// numbers and the group a bare negative number: Debian's `sh` (dash) refuses `kill -TERM -- -GROUP`.
    static let script = """
        trap '' INT HUP
        IFS= read -r line
        [ "$line" = done ] && exit 0
        kill -15 "-$1" 2>/dev/null || exit 0
        i=0
        while [ $i -lt 50 ] && kill -0 "-$1" 2>/dev/null; do sleep 0.1; i=$((i+1)); done
        kill -9 "-$1" 2>/dev/null
        exit 0
        """

    private let writer: FileDescriptor

    /// Starts a guard over the process group `group` (the plugin's pid, which leads it); nil, with a warning, when
    /// no guard could be started (the plugin still runs, and is still stopped by a timeout or a stopped run).
    static func start(group: pid_t, logger: Logger?) -> PluginGuard? {
        let ends: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            ends = try FileDescriptor.pipe()
        } catch {
            logger?.warning(
                "no guard for the plugin: a pipe could not be made; it is not stopped if pushline is killed",
                metadata: ["reason": "\(error)"])
            return nil
        }
        // Only this process may hold the writing end: a child that inherited it would keep the guard from seeing this one die.
        _ = fcntl(ends.writeEnd.rawValue, F_SETFD, FD_CLOEXEC)
        var options = PlatformOptions()
        // A process group of its own: a signal to pushline's group (a terminal's, a supervisor's) does not take the guard with it.
        options.processGroupID = 0
        Task.detached {
            do {
                _ = try await Subprocess.run(
                    .path(FilePath("/bin/sh")), arguments: ["-c", script, "pushline-plugin-guard", "\(group)"],
                    environment: .custom(["PATH": "/usr/bin:/bin"]), platformOptions: options,
                    input: .fileDescriptor(ends.readEnd, closeAfterSpawningProcess: true),
                    output: .discarded, error: .discarded)
            } catch {
                logger?.warning(
                    "no guard for the plugin: /bin/sh could not be started; it is not stopped if pushline is killed",
                    metadata: ["reason": "\(error)"])
            }
        }
        return PluginGuard(writer: ends.writeEnd)
    }

    /// The plugin has ended: the guard exits without a signal.
    func release() {
        _ = try? writer.writeAll("done\n".utf8)
        try? writer.close()
    }
}
