import HubWire
import PipelineCore
import Synchronization

extension RunRecord {
    /// The lock the process filling a spool holds: one name for every part of the run (same identity and
    /// generation), for the step and source `key` names.
    package func spoolLockName(step: Int, source: String) -> String {
        "spool-" + String(ContentDigest.hex("\(identity) \(generation) \(step) \(source)").prefix(32))
    }
}

extension SpooledRows {
    /// The columns as a store keeps them: a JSON array.
    package var columnsJSON: String { Self.columnsJSON(columns) }

    /// `columns` as a store keeps them: a JSON array.
    package static func columnsJSON(_ columns: [String]) -> String { JSONRowLine.array(columns) }

    /// Columns from their stored JSON array (none when it is not one).
    package static func columns(fromJSON text: String?) -> [String] {
        JSONRowLine.strings(fromArray: text ?? "[]")
    }
}

/// What a store's ledger does to fill a spool: append numbered lines, mark it complete.
package protocol SpoolWriting: Sendable {
    /// Appends `lines` to `spool`, numbered on from `first`, durable when it returns.
    func appendSpool(_ spool: Int64, lines: [String], from first: Int) async throws(LedgerError)
    /// Marks `spool` complete; throws unless it was being filled (another process took it over).
    func completeSpool(_ spool: Int64, columns: [String], count: Int, digest: String, now: Double)
        async throws(LedgerError)
}

/// The process filling one spool for a store: the rows go in page by page while it holds the spool's lock.
package final class LockedSpoolFiller: SpoolFiller {
    private let writer: any SpoolWriting
    private let spool: Int64
    private let run: String
    private let lock: any RunLock
    private let written = Mutex(0)

    /// A filler of `spool` for `run`, writing through `writer`, holding `lock`.
    package init(writer: any SpoolWriting, spool: Int64, run: String, lock: any RunLock) {
        self.writer = writer
        self.spool = spool
        self.run = run
        self.lock = lock
    }

    /// Appends lines numbered on from the last.
    package func append(_ lines: [String]) async throws(LedgerError) {
        let first = written.withLock { $0 } + 1
        try await writer.appendSpool(spool, lines: lines, from: first)
        written.withLock { $0 += lines.count }
    }

    /// Marks the spool complete.
    package func complete(columns: [String], count: Int, digest: String, now: Double) async throws(LedgerError)
        -> SpooledRows
    {
        try await writer.completeSpool(spool, columns: columns, count: count, digest: digest, now: now)
        return SpooledRows(spool: spool, columns: columns, count: count, digest: digest, run: run, readAt: now)
    }

    /// Gives the spool's lock back.
    package func release() async {
        await lock.release()
    }
}
