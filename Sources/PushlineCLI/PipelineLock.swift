import Foundation
import PipelineCore
import RowReading
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of a pipeline at a time: an exclusive `flock` on a lock file beside the journal.
///
/// The kernel drops the lock when its holder exits, however it exits, so a lock left by a killed
/// run never blocks the next one. The file holds the holder's pid and start time for the message a
/// second run prints.
final class PipelineLock {
    private let descriptor: Int32
    /// The lock file.
    let path: String

    /// Another run holds the lock.
    struct Held: Error {
        /// What the holder wrote: `pid 123, started 2026-11-22T04:12:00Z`.
        let holder: String
    }

    /// The lock file of `pipeline` (an absolute path) in `directory`.
    static func path(pipeline: String, directory: String) -> String {
        let name = URL(fileURLWithPath: pipeline).deletingPathExtension().lastPathComponent
            .filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return "\(directory)/\(name.isEmpty ? "pipeline" : name)-\(ContentDigestPrefix.of(pipeline)).lock"
    }

    /// Whether a live process holds the lock of `pipeline`: a run the journal shows `running` whose lock
    /// is free was killed (its holder is gone), so it is abandoned and resumable. The probe only reads,
    /// taking (and at once dropping) a shared lock; it never writes the holder's line.
    static func isHeld(pipeline: String, directory: String) -> Bool {
        let descriptor = open(path(pipeline: pipeline, directory: directory), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
        flock(descriptor, LOCK_UN)
        return false
    }

    /// Takes the lock for `pipeline` (an absolute path) in `directory`, or throws `Held` at once.
    init(pipeline: String, directory: String, now: Date) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        path = Self.path(pipeline: pipeline, directory: directory)
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CommandFailure("cannot open the lock file '\(path)': \(String(cString: strerror(errno)))")
        }
        // `isHeld` (runs list/show) takes a shared lock for an instant; a few short retries keep that
        // probe from turning a run away. A real holder keeps the lock far longer than this.
        var failure = Self.tryLock(descriptor)
        for _ in 0..<5 where failure == EWOULDBLOCK {
            usleep(20_000)
            failure = Self.tryLock(descriptor)
        }
        guard failure == 0 else {
            let code = failure
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            if code == EWOULDBLOCK { throw Held(holder: holder.flatMap { $0.isEmpty ? nil : $0 } ?? "another process") }
            throw CommandFailure("cannot lock '\(path)': \(String(cString: strerror(code)))")
        }
        let text = "pid \(getpid()), started \(ISO8601DateFormatter().string(from: now))\n"
        _ = ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    /// Tries the exclusive lock once: 0 when taken, else the errno.
    private static func tryLock(_ descriptor: Int32) -> Int32 {
        flock(descriptor, LOCK_EX | LOCK_NB) == 0 ? 0 : errno
    }

    /// Releases the lock (also released when the process ends).
    func release() {
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
