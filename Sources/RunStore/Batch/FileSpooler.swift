import Foundation
import HubWire
import Logging
import PipelineCore

/// Keeps a run's `for-each` file with the run: a new run copies the file into its spool as it reads it, and reads
/// that copy; a resumed run, or another part of a split run, reads the copy back, whatever the file holds now. So a
/// run cut off is resumed with the rows it first read, as a query's are (`RowSpooler`).
///
/// The spool holds the file's bytes in chunks of 64 KiB, each a line: `t` and the text when the chunk is valid
/// UTF-8, `b` and its base64 when it is not (a malformed row stays malformed in the copy). The spool's digest is
/// the digest of those lines (`digest(ofFileAt:)` gives the same for the file itself).
package enum FileSpooler {
    /// The spool's source name for a run split as `shard` says: one `for-each` a step. The split is part of it, because
    /// runs split another way number their generations apart (a whole run's generation 0 is not its parts').
    package static func source(split shard: Shard?) -> String {
        shard.map { "for-each file, \($0.count) parts" } ?? "for-each file"
    }
    /// Bytes a chunk holds.
    static let chunkBytes = 1 << 16
    /// Chunks a page of the spool holds (one transaction each).
    static let chunksPerPage = 16

    /// The copy of `path` this run reads (a temporary file only this user can read, which the caller removes), the
    /// digest of its content, and whether it was read from the file now or spooled by an earlier attempt or part.
    package static func copy(
        _ path: String, shown: String, step: Int, split shard: Shard?, spool: any RowSpool,
        now: @Sendable () -> Double, stop: StopSignal, logger: Logger
    ) async throws(StepFailure) -> (copy: String, digest: String, origin: RowSpooler.Origin) {
        var waited = false
        let source = source(split: shard)
        while true {
            switch try await stored({ () async throws(LedgerError) in
                try await spool.claimSpool(step: step, source: source, now: now())
            }) {
            case .complete(let rows):
                return (try await copyOut(rows, spool: spool, shown: shown), rows.digest, .spooled)
            case .busy:
                // Another part of the split run is copying the file; its lock goes when it ends or dies.
                if !waited { logger.info("waiting for another part of the run to keep the rows of '\(shown)'") }
                waited = true
                do { try await Task.sleep(for: .milliseconds(250)) } catch {}
                if stop.isRequested || Task.isCancelled {
                    throw StepFailure("stopped while another part of the run was keeping '\(shown)'").coded(.stopped)
                }
            case .fill(let filler):
                do throws(StepFailure) {
                    let (copy, digest, count) = try await copyIn(path, shown: shown, into: filler, stop: stop)
                    do throws(StepFailure) {
                        _ = try await stored({ () async throws(LedgerError) in
                            try await filler.complete(columns: [], count: count, digest: digest, now: now())
                        })
                    } catch {
                        // Another process took the spool over: this copy is not the run's, and holds its people's rows.
                        try? FileManager.default.removeItem(atPath: copy)
                        throw error
                    }
                    await filler.release()
                    return (copy, digest, .read)
                } catch {
                    await filler.release()
                    throw error
                }
            }
        }
    }

    /// The digest a spool of the file at `path` records, or nil when it cannot be read.
    package static func digest(ofFileAt path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var digest = ContentDigest.Running()
        while let chunk = try? handle.read(upToCount: chunkBytes), !chunk.isEmpty { digest.add(line: line(chunk)) }
        return digest.finish()
    }

    /// The spool's line for `chunk`: its text, unless it is not UTF-8 or holds a NUL (which PostgreSQL's text refuses).
    package static func line(_ chunk: Data) -> String {
        if !chunk.contains(0), let text = String(validating: chunk, as: UTF8.self) { return "t" + text }
        return "b" + chunk.base64EncodedString()
    }

    /// The bytes `line` holds, or nil when it is not a spool's line.
    package static func bytes(_ line: String) -> Data? {
        switch line.first {
        case "t": Data(line.utf8.dropFirst())
        case "b": Data(base64Encoded: String(line.dropFirst()))
        default: nil
        }
    }

    /// Reads the file into the spool page by page, writing the same bytes to the copy the run reads.
    private static func copyIn(_ path: String, shown: String, into filler: any SpoolFiller, stop: StopSignal)
        async throws(StepFailure) -> (copy: String, digest: String, count: Int)
    {
        guard let input = FileHandle(forReadingAtPath: path) else {
            throw StepFailure("for-each file '\(shown)' cannot be read").coded(.inputRejected)
        }
        defer { try? input.close() }
        let (copy, output) = try temporaryFile(shown)
        defer { try? output.close() }
        var digest = ContentDigest.Running()
        var count = 0
        var page: [String] = []
        do {
            while true {
                let chunk = try input.read(upToCount: chunkBytes) ?? Data()
                if !chunk.isEmpty {
                    try output.write(contentsOf: chunk)
                    let line = line(chunk)
                    digest.add(line: line)
                    page.append(line)
                    count += 1
                }
                if page.count >= chunksPerPage || (chunk.isEmpty && !page.isEmpty) {
                    // A stop between pages: a file of gigabytes is not copied whole first.
                    if stop.isRequested {
                        throw StepFailure("stopped while keeping '\(shown)' with the run").coded(.stopped)
                    }
                    try await stored { () async throws(LedgerError) in try await filler.append(page) }
                    page.removeAll(keepingCapacity: true)
                }
                if chunk.isEmpty { break }
            }
        } catch let failure as StepFailure {
            try? FileManager.default.removeItem(atPath: copy)
            throw failure
        } catch {
            try? FileManager.default.removeItem(atPath: copy)
            throw StepFailure("for-each file '\(shown)' could not be kept with the run: \(error)").coded(
                .rowsUnavailable)
        }
        return (copy, digest.finish(), count)
    }

    /// The copy a complete spool holds, written back out (a dry run of a resume reads what the resume would).
    package static func copy(of rows: SpooledRows, spool: any RowSpool, shown: String) async throws(StepFailure)
        -> String
    {
        try await copyOut(rows, spool: spool, shown: shown)
    }

    /// Writes the spool's chunks back out as the file the run first read, checked against its count and digest.
    private static func copyOut(_ rows: SpooledRows, spool: any RowSpool, shown: String) async throws(StepFailure)
        -> String
    {
        guard let id = rows.spool else { throw unusable(shown) }
        let (copy, output) = try temporaryFile(shown)
        defer { try? output.close() }
        var digest = ContentDigest.Running()
        var count = 0
        do {
            while true {
                let lines = try await stored { () async throws(LedgerError) in
                    try await spool.spoolLines(id, after: count, limit: chunksPerPage)
                }
                if lines.isEmpty { break }
                for line in lines {
                    guard let bytes = bytes(line) else { throw unusable(shown) }
                    digest.add(line: line)
                    try output.write(contentsOf: bytes)
                }
                count += lines.count
            }
            guard count == rows.count, digest.finish() == rows.digest else { throw unusable(shown) }
        } catch let failure as StepFailure {
            try? FileManager.default.removeItem(atPath: copy)
            throw failure
        } catch {
            try? FileManager.default.removeItem(atPath: copy)
            throw StepFailure("the rows of '\(shown)' the run kept could not be copied out: \(error)").coded(
                .rowsUnavailable)
        }
        return copy
    }

    private static func unusable(_ shown: String) -> StepFailure {
        StepFailure(
            "the copy of '\(shown)' the run kept is not what it recorded",
            hint: "the run store was changed by hand, or its runs pruned; start the run afresh with --again"
        ).coded(.rowsUnavailable)
    }

    /// A new, empty file in TMPDIR that only this user can read (the rows are the people the run notifies).
    private static func temporaryFile(_ shown: String) throws(StepFailure) -> (String, FileHandle) {
        do { return try RowSpooler.temporaryFile(for: "a copy of '\(shown)'") } catch let failure as StepFailure {
            throw failure
        } catch {
            throw StepFailure("cannot keep a copy of '\(shown)': \(error)").coded(.rowsUnavailable)
        }
    }

    /// `body`'s value; a store that fails stops the run as a journal that cannot be written does.
    private static func stored<T>(_ body: () async throws(LedgerError) -> T) async throws(StepFailure) -> T {
        do throws(LedgerError) { return try await body() } catch { throw error.stepFailure }
    }
}
