import Foundation
import Logging
import PipelineCore
import RunStore
import Testing

/// A run's copy of its `for-each` file (`FileSpooler`), on each store: the bytes come back as they were, whatever the
/// file holds by then; text, a NUL, bytes that are not UTF-8 and a file larger than a chunk alike.
@Suite("RunStore contract: for-each files kept with the run")
struct FileSpoolerTests {
    private let logger = Logger(label: "FileSpoolerTests")

    private func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.path + "/FileSpoolerTests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A CSV of 3,000 rows (more than one 64 KiB chunk), one holding a NUL and one bytes that are not UTF-8.
    private func export(_ path: String, night: String) throws {
        var bytes = Data("userId,message\n".utf8)
        for row in 1...3_000 { bytes += Data("u\(row),\(night) digest number \(row) for you\n".utf8) }
        bytes += Data("nul,a\u{0}b\n".utf8)
        bytes += Data([0x62, 0x61, 0x64, 0x2C, 0xFF, 0xFE, 0x0A])
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    @Test(
        "a new run keeps the file as it reads it; a resume reads that copy back after the file was rewritten; a run split another way keeps its own; a finished run's copy goes, its digest stays",
        arguments: StoreKind.all)
    func keptAndReadBack(_ kind: StoreKind) async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/outbox.csv"
        try export(file, night: "first")
        let first = try Data(contentsOf: URL(fileURLWithPath: file))
        try await withStore(kind) { store, reopen in
            let run = try await store.startRun(
                identity: "abc", pipeline: "digest", shard: nil, generation: 0, pid: 1, now: novemberMorning)
            let spool = try #require(store.ledger(for: run).rowSpool)
            let kept = try await FileSpooler.copy(
                file, shown: "outbox.csv", step: 2, split: nil, spool: spool, now: { novemberMorning },
                stop: StopSignal(), logger: logger)
            defer { try? FileManager.default.removeItem(atPath: kept.copy) }
            #expect(kept.origin == .read && kept.digest == FileSpooler.digest(ofFileAt: file))
            #expect(try Data(contentsOf: URL(fileURLWithPath: kept.copy)) == first)

            // The export is rewritten; the run resumes (from a reopened store): it reads the file it first read.
            try export(file, night: "second")
            let resumed = try #require(try await reopen().ledger(for: run).rowSpool)
            let again = try await FileSpooler.copy(
                file, shown: "outbox.csv", step: 2, split: nil, spool: resumed, now: { novemberMorning + 60 },
                stop: StopSignal(), logger: logger)
            defer { try? FileManager.default.removeItem(atPath: again.copy) }
            #expect(again.origin == .spooled && again.digest == kept.digest)
            #expect(try Data(contentsOf: URL(fileURLWithPath: again.copy)) == first)
            #expect(FileSpooler.digest(ofFileAt: file) != kept.digest)

            // A run split in two numbers its generations apart: it never reads the whole run's copy.
            let split = try await FileSpooler.copy(
                file, shown: "outbox.csv", step: 2, split: Shard(index: 0, count: 2), spool: resumed,
                now: { novemberMorning + 61 }, stop: StopSignal(), logger: logger)
            defer { try? FileManager.default.removeItem(atPath: split.copy) }
            #expect(split.origin == .read && split.digest == FileSpooler.digest(ofFileAt: file))

            // The run ended: its copy's lines go, its digest stays for the next start's comparison.
            try await resumed.discardLines(step: 2, source: FileSpooler.source(split: nil))
            let record = try #require(try await resumed.completedSpool(step: 2, source: FileSpooler.source(split: nil)))
            #expect(record.digest == kept.digest)
            #expect(try await resumed.spoolLines(try #require(record.spool), after: 0, limit: 10).isEmpty)
        }
    }

    @Test("a line holds a chunk's text, or its base64 when it is not UTF-8 or holds a NUL; each reads back as it was")
    func chunkLines() {
        for chunk in [Data("userId\nu1\n".utf8), Data("a\u{0}b".utf8), Data([0x61, 0xFF, 0x0A]), Data("t".utf8)] {
            let line = FileSpooler.line(chunk)
            #expect(line.first == (chunk.contains(0) || String(validating: chunk, as: UTF8.self) == nil ? "b" : "t"))
            #expect(FileSpooler.bytes(line) == chunk)
        }
        #expect(FileSpooler.bytes("x-not-a-line") == nil)
    }
}
