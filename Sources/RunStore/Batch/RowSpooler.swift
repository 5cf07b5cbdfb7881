import Foundation
import HubWire
import Logging
import PipelineCore

/// Puts the rows a step reads from its source into the run's spool once, and hands back where they are; a step that
/// produces rows (`query`) runs its source through it, so every step that reads them reads the same rows.
///
/// In a live run with a run store: the rows an earlier attempt of this run (or another part of a split run) spooled
/// are used as they are; else the source is read now. A new run never takes another run's rows: every run that is not
/// a resume reads its sources afresh, so a fixed row or the next night's data is what it sends. A dry run (or a run
/// without a store) reads the source into a file of its own, removed when the run ends.
package struct RowSpooler: Sendable {
    /// How the rows came to be.
    package enum Origin: Sendable, Equatable {
        /// Read from the source now.
        case read
        /// Spooled by an earlier attempt of this run or another part of it.
        case spooled
    }

    /// The producing step's 1-based position.
    package let step: Int
    /// A digest of what it reads (never a password).
    package let source: String

    /// A spooler for the step at `step` reading `source`.
    package init(step: Int, source: String) {
        self.step = step
        self.source = source
    }

    /// The rows, spooled; `read` reads the source into the sink it is given only when no spool can be used.
    package func rows(in context: StepContext, read: (RowSink) async throws -> Void) async throws -> (
        SpooledRows, Origin
    ) {
        let now = { context.clock.now().timeIntervalSince1970 }
        guard !context.isDryRun, let ledger = context.batch.ledger, ledger.isWritable, let spool = ledger.rowSpool
        else {
            let (path, handle) = try Self.temporaryFile(for: "the rows")
            context.state.addTemporaryFile(path)
            let sink = RowSink(.file(handle))
            do {
                try await read(sink)
                try await sink.flush()
                try? handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            return (
                SpooledRows(
                    spool: nil, file: path, columns: sink.columns, count: sink.count, digest: sink.digest.finish(),
                    readAt: now()), .read
            )
        }
        var waited = false
        // Runs split another way number their generations apart: the split is part of the spool's name, so a whole run
        // never reads the spool of a split run's generation of the same number, nor the other way round.
        let source = source + (context.batch.shard.map { ", \($0.count) parts" } ?? "")
        while true {
            switch try await Self.stored({ () async throws(LedgerError) in
                try await spool.claimSpool(step: step, source: source, now: now())
            }) {
            case .complete(let rows):
                return (rows, .spooled)
            case .busy:
                // Another part of the split run is reading the source; its lock goes when it ends or dies.
                if context.batch.stop.isRequested {
                    throw StepFailure("stopped while another part of the run was spooling the rows").coded(.stopped)
                }
                if !waited {
                    context.logger.info(
                        "waiting for another part of the run to spool the rows", metadata: ["step": "\(step)"])
                }
                waited = true
                try? await Task.sleep(for: .milliseconds(250))
            case .fill(let filler):
                do {
                    let sink = RowSink(.spool(filler))
                    try await read(sink)
                    try await sink.flush()
                    let rows = try await Self.stored({ () async throws(LedgerError) in
                        try await filler.complete(
                            columns: sink.columns, count: sink.count, digest: sink.digest.finish(), now: now())
                    })
                    await filler.release()
                    return (rows, .read)
                } catch {
                    await filler.release()
                    throw error
                }
            }
        }
    }

    /// `body`'s value; a store that fails stops the step as a journal that cannot be written does.
    private static func stored<T>(_ body: () async throws(LedgerError) -> T) async throws(StepFailure) -> T {
        do throws(LedgerError) { return try await body() } catch { throw error.stepFailure }
    }

    /// A new, empty rows file in TMPDIR that only this user can read: rows carry user ids and the data of messages,
    /// and TMPDIR is often shared with other users of the machine.
    static func temporaryFile(for what: String) throws -> (path: String, handle: FileHandle) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-rows-\(UUID().uuidString).jsonl"
        ).path
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw StepFailure(
                "cannot write \(what) to a temporary file (\(path))", hint: "check that TMPDIR is writable"
            ).coded(.rowsUnavailable)
        }
        return (path, handle)
    }

    /// A JSON Lines file of `rows` for a step to read as its `for-each` (rows from the store are copied out page by
    /// page, in constant memory, and checked against their count and digest); the caller removes it when `temporary`.
    package static func file(of rows: SpooledRows, ledger: (any ItemLedger)?, producer: String) async throws -> (
        path: String, temporary: Bool
    ) {
        if let file = rows.file { return (file, false) }
        if rows.spool == nil, rows.count == 0 {
            // No rows at all (the step that makes them did not run): an empty file, so a `when: always` step reads none.
            let (path, handle) = try temporaryFile(for: "the rows of \(producer)")
            try? handle.close()
            return (path, true)
        }
        guard let spool = rows.spool, let store = ledger?.rowSpool else {
            throw StepFailure(
                "the rows of \(producer) are in the run store, and this run has none open",
                hint: "run with the same --journal"
            ).coded(.rowsUnavailable)
        }
        let (path, handle) = try temporaryFile(for: "the rows of \(producer)")
        defer { try? handle.close() }
        var digest = ContentDigest.Running()
        var count = 0
        do {
            while true {
                let lines = try await store.spoolLines(spool, after: count, limit: 2_000)
                if lines.isEmpty { break }
                var chunk = ""
                for line in lines {
                    digest.add(line: line)
                    chunk += line
                    chunk += "\n"
                }
                try handle.write(contentsOf: Data(chunk.utf8))
                count += lines.count
            }
        } catch let error as LedgerError {
            try? FileManager.default.removeItem(atPath: path)
            throw error.stepFailure
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw StepFailure(
                "cannot write the rows of \(producer) to a temporary file: \(error)", hint: "check the space in TMPDIR"
            ).coded(.rowsUnavailable)
        }
        guard count == rows.count, digest.finish() == rows.digest else {
            try? FileManager.default.removeItem(atPath: path)
            throw StepFailure(
                "the rows \(producer) spooled are not what the run recorded (\(count) rows read back, \(rows.count) recorded, or their digest differs)",
                hint: "the run store was changed by hand, or its runs pruned; start the run afresh with --again"
            ).coded(.rowsUnavailable)
        }
        return (path, true)
    }
}

/// Where a source's rows go as they are read: numbered lines of JSON objects, flushed in pages.
package final class RowSink {
    enum Destination {
        case spool(any SpoolFiller)
        case file(FileHandle)
    }

    private let destination: Destination
    private var pending: [String] = []
    private var pendingBytes = 0
    /// The columns, as `begin` set them.
    package private(set) var columns: [String] = []
    /// Rows added so far.
    package private(set) var count = 0
    var digest = ContentDigest.Running()

    init(_ destination: Destination) {
        self.destination = destination
    }

    /// Sets the columns every row has (the source's, in order), before the first row.
    package func begin(columns: [String]) {
        self.columns = columns
    }

    /// Adds one row: its values in column order, nil for a null.
    package func add(_ values: [String?]) async throws {
        let line = JSONRowLine.of(columns, values)
        digest.add(line: line)
        pending.append(line)
        pendingBytes += line.utf8.count
        count += 1
        // Pages of about a megabyte keep memory flat and the store's transactions few.
        if pending.count >= 2_000 || pendingBytes >= 1 << 20 { try await flush() }
    }

    /// Writes what is pending.
    func flush() async throws {
        guard !pending.isEmpty else { return }
        switch destination {
        case .spool(let filler):
            do throws(LedgerError) { try await filler.append(pending) } catch { throw error.stepFailure }
        case .file(let handle):
            var chunk = ""
            for line in pending {
                chunk += line
                chunk += "\n"
            }
            do { try handle.write(contentsOf: Data(chunk.utf8)) } catch {
                throw StepFailure(
                    "cannot write the rows to a temporary file: \(error)", hint: "check the space in TMPDIR"
                ).coded(.rowsUnavailable)
            }
        }
        pending.removeAll(keepingCapacity: true)
        pendingBytes = 0
    }
}
