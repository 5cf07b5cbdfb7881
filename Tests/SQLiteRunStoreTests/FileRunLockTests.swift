import Foundation
import RunStore
import Testing

@testable import SQLiteRunStore

/// What is the file lock's own (the contract suite covers what every lock must do).
@Suite struct FileRunLockTests {
    @Test(
        "the lock file's name is stable across versions, so an old and a new binary exclude each other during an upgrade"
    )
    func stableName() {
        #expect(
            FileRunLock.path(pipeline: "/srv/pushline/digest.yaml", directory: "/state/locks")
                == "/state/locks/digest-5fcfcc8dbb.lock")
        #expect(
            FileRunLock.path(pipeline: "/srv/other/digest.yaml", directory: "/l")
                != FileRunLock.path(pipeline: "/srv/pushline/digest.yaml", directory: "/l"))
    }

    @Test("the holder's line reads back, an earlier version's too; an empty or foreign line is no holder")
    func holderLine() {
        #expect(
            FileRunLock.parse("4242 1795320720.0 batch-7\n")
                == LockHolder(pid: 4242, host: "batch-7", startedAt: 1_795_320_720))
        #expect(
            FileRunLock.parse("4242 1795320720.5 host with spaces")
                == LockHolder(pid: 4242, host: "host with spaces", startedAt: 1_795_320_720.5))
        #expect(FileRunLock.parse("") == nil)
        #expect(
            FileRunLock.parse("pid 4242, started 2026-11-22T04:12:00Z")
                == LockHolder(pid: 4242, host: "this host", startedAt: 1_795_320_720),
            "an earlier version's line, met during an upgrade")
        #expect(FileRunLock.parse("pid x, started whenever") == nil)
    }

    @Test("the lock directory is made private")
    func privateDirectory() async throws {
        let directory =
            FileManager.default.temporaryDirectory.path + "/FileRunLockTests-" + UUID().uuidString + "/locks"
        defer { try? FileManager.default.removeItem(atPath: FilePathParent.of(directory)) }
        guard
            case .acquired(let lock) = try FileRunLock.acquire(
                pipeline: "/p.yaml", directory: directory, holder: .current(now: 0))
        else {
            Issue.record("a free lock was not taken")
            return
        }
        let mode = (try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? NSNumber)?
            .intValue
        #expect(mode == 0o700)
        await lock.release()
    }
}

private enum FilePathParent {
    static func of(_ path: String) -> String { URL(fileURLWithPath: path).deletingLastPathComponent().path }
}
