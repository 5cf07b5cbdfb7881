import Foundation
import HubWire
import RunStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One run of a pipeline at a time on this machine: an exclusive `flock` on a lock file beside the journal.
///
/// The kernel drops the lock when its holder exits, however it exits, so a lock left by a killed run never
/// blocks the next one. The file holds the holder's pid, host and start time for the message a second run
/// prints.
final class FileRunLock: RunLock {
    private let descriptor: Int32
    private let released = Mutex(false)
    /// The lock file.
    let path: String
    let holder: LockHolder

    /// The lock file of the lock named `pipeline` in `directory`: the name's last path component, and a short digest
    /// of the whole name so two names that share that part lock apart. The name must not
    /// change between versions: a run of the old binary and one of the new during an upgrade must still
    /// exclude each other.
    static func path(pipeline: String, directory: String) -> String {
        let name = URL(fileURLWithPath: pipeline).deletingPathExtension().lastPathComponent
            .filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return "\(directory)/\(name.isEmpty ? "pipeline" : name)-\(RowDigest.of([pipeline]).prefix(10)).lock"
    }

    /// Whether a live process holds the lock of `pipeline`. The probe only reads, taking (and at once
    /// dropping) a shared lock; it never writes the holder's line.
    static func isHeld(pipeline: String, directory: String) -> Bool {
        let descriptor = open(path(pipeline: pipeline, directory: directory), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
        flock(descriptor, LOCK_UN)
        return false
    }

    /// A description of the holder of some lock in `directory` that a live process holds, or nil when none is held
    /// (or there is no such directory). Only reads, as `isHeld` does.
    static func anyHeld(in directory: String) -> String? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        for name in names.sorted() where name.hasSuffix(".lock") {
            let path = directory + "/" + name
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
                flock(descriptor, LOCK_UN)
                continue
            }
            guard errno == EWOULDBLOCK else { continue }
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            return parse(text).map { "\($0)" } ?? "lock file \(path)"
        }
        return nil
    }

    /// Takes the lock named `pipeline` in `directory`, or says who holds it, at once.
    static func acquire(pipeline: String, directory: String, holder: LockHolder) throws(RunStoreError) -> LockAttempt {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw RunStoreError(
                "cannot create the lock directory '\(directory)': \(error.localizedDescription)", kind: .configuration)
        }
        let path = path(pipeline: pipeline, directory: directory)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw RunStoreError(
                "cannot open the lock file '\(path)': \(String(cString: strerror(errno)))", kind: .configuration)
        }
        // `isHeld` (runs list/show) takes a shared lock for an instant; a few short retries keep that
        // probe from turning a run away. A real holder keeps the lock far longer than this.
        var failure = tryLock(descriptor)
        for _ in 0..<5 where failure == EWOULDBLOCK {
            usleep(20_000)
            failure = tryLock(descriptor)
        }
        guard failure == 0 else {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            close(descriptor)
            if failure == EWOULDBLOCK { return .held(parse(text)) }
            throw RunStoreError("cannot lock '\(path)': \(String(cString: strerror(failure)))")
        }
        let line = "\(holder.pid) \(holder.startedAt) \(holder.host)\n"
        _ = ftruncate(descriptor, 0)
        _ = line.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        return .acquired(FileRunLock(descriptor: descriptor, path: path, holder: holder))
    }

    private init(descriptor: Int32, path: String, holder: LockHolder) {
        self.descriptor = descriptor
        self.path = path
        self.holder = holder
    }

    /// The holder from the lock file's line `PID STARTED HOST` (or an earlier version's line); nil when it is
    /// empty (the holder is between taking the lock and writing it) or in neither form.
    static func parse(_ text: String) -> LockHolder? {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let fields = line.split(separator: " ", maxSplits: 2)
        if fields.count == 3, let pid = Int32(fields[0]), let started = Double(fields[1]) {
            return LockHolder(pid: pid, host: String(fields[2]), startedAt: started)
        }
        // What an earlier Pushline wrote (`pid 123, started 2026-11-22T04:12:00Z`), met during an upgrade.
        guard line.hasPrefix("pid "), let comma = line.firstIndex(of: ","),
            let pid = Int32(line[line.index(line.startIndex, offsetBy: 4)..<comma]),
            let started = ISO8601DateFormatter().date(from: String(line[comma...].dropFirst(", started ".count)))
        else { return nil }
        return LockHolder(pid: pid, host: "this host", startedAt: started.timeIntervalSince1970)
    }

    /// Tries the exclusive lock once: 0 when taken, else the errno.
    private static func tryLock(_ descriptor: Int32) -> Int32 {
        flock(descriptor, LOCK_EX | LOCK_NB) == 0 ? 0 : errno
    }

    /// Releases the lock (also released when the process ends).
    func release() async {
        guard
            released.withLock({ done in
                defer { done = true }
                return !done
            })
        else { return }
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
