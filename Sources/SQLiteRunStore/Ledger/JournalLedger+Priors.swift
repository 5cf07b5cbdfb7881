import Foundation
import PipelineCore
import RunStore
import Synchronization

/// Looking up what runs already sent under an idempotency key: for one item, and for a batch's next rows together.
extension JournalLedger {
    /// The newest item of any run with `key` that was accepted, is being sent or is of unknown fate, recorded at
    /// or after `since`; the item at `excluding` of this run is not counted. The key is its own scope: a default
    /// key names its hub, a declared one its pipeline and step.
    package func priorSend(key: String, since: Double, excluding: LedgerKey) async throws(LedgerError) -> PriorSend? {
        try await ledgerCall { () throws(RunStoreError) -> PriorSend? in
            try await journal.withConnection { (connection) throws(RunStoreError) -> PriorSend? in
                try Self.prior(
                    connection, key: key, seq: run == nil ? -1 : try runSeq(connection), since: since,
                    excluding: excluding)
            }
        }
    }

    /// The `priorSend` lookup on a connection already held, for run `seq` (-1 for none).
    static func prior(
        _ connection: SQLiteConnection, key: String, seq: Int64, since: Double,
        excluding: LedgerKey
    ) throws(RunStoreError) -> PriorSend? {
        var found: PriorSend?
        try connection.query(
            LedgerSQL.priorSend,
            bind: { (statement) throws(RunStoreError) in
                try statement.bindCompact(1, key, key: true)
                try statement.bind(2, seq)
                try statement.bind(3, since)
                try statement.bind(4, Int64(excluding.step))
                try statement.bind(5, Int64(excluding.row))
                try statement.bindKeyPrefix(6, key)
            }
        ) { (row) throws(RunStoreError) in
            found = PriorSend(
                runId: row.text(0) ?? "", at: row.double(1), state: try JournalRows.itemState(row, 2, connection),
                origin: try connection.originFiles.origin(row, 3, row: row.int(7), connection),
                sameRun: row.int64(4) != 0,
                notificationId: row.compactText(5),
                key: LedgerKey(step: row.int(6), row: row.int(7)))
        }
        return found
    }

    /// `priorSend` for each of `asks`, in one statement per `LedgerSQL.keysPerLookup` keys: a batch's next rows ask
    /// together, which costs a read transaction (and its file locks) per batch rather than per row.
    package func priorSends(_ asks: [PriorAsk], since: Double) async throws(LedgerError) -> [LedgerKey: PriorSend] {
        guard !asks.isEmpty else { return [:] }
        return try await ledgerCall { () throws(RunStoreError) -> [LedgerKey: PriorSend] in
            try await journal.withConnection { (connection) throws(RunStoreError) -> [LedgerKey: PriorSend] in
                let seq = run == nil ? -1 : try runSeq(connection)
                return try priors(asks, since: since, seq: seq, connection: connection)
            }
        }
    }

    /// `priorSends` on a connection already held (inside a write transaction, for the claims a mark makes), for run
    /// `seq` (-1 for none).
    func priors(_ asks: [PriorAsk], since: Double, seq: Int64, connection: SQLiteConnection) throws(RunStoreError)
        -> [LedgerKey: PriorSend]
    {
        guard !asks.isEmpty else { return [:] }
        var keys: [String] = []
        var seen: Set<String> = []
        for ask in asks where seen.insert(ask.key).inserted { keys.append(ask.key) }
        var candidates: [String: [PriorSend]] = [:]
        var start = 0
        while start < keys.count {
            let chunk = keys[start..<min(start + LedgerSQL.keysPerLookup, keys.count)]
            var found: [(key: String, run: Int64, prior: PriorSend)] = []
            try connection.query(
                LedgerSQL.priorSends,
                bind: { (statement) throws(RunStoreError) in
                    try statement.bind(1, since)
                    for slot in 0..<LedgerSQL.keysPerLookup {
                        try statement.bindKeyPrefix(
                            Int32(slot + 2), slot < chunk.count ? chunk[chunk.startIndex + slot] : nil)
                    }
                }
            ) { (row) throws(RunStoreError) in
                let run = row.int64(1)
                found.append(
                    (
                        row.compactText(0) ?? "", run,
                        PriorSend(
                            runId: "", at: row.double(2), state: try JournalRows.itemState(row, 3, connection),
                            origin: try connection.originFiles.origin(row, 4, row: row.int(7), connection),
                            sameRun: run == seq,
                            notificationId: row.compactText(5),
                            key: LedgerKey(step: row.int(6), row: row.int(7)))
                    ))
            }
            for var item in found {
                item.prior.runId = try runId(of: item.run, connection)
                candidates[item.key, default: []].append(item.prior)
            }
            start += LedgerSQL.keysPerLookup
        }
        var found: [LedgerKey: PriorSend] = [:]
        for ask in asks {
            if let best = ask.best(among: candidates[ask.key] ?? []) { found[ask.item] = best }
        }
        return found
    }

    /// The id of the run with seq `seq`, looked up once: a re-run's batches keep finding the same earlier run. (SQLite
    /// gives a new run the highest seq plus one, so a seq could name another run only after the newest run was removed;
    /// a prior is older than the run asking, which is in the journal, so its seq is never reused meanwhile.)
    func runId(of seq: Int64, _ connection: SQLiteConnection) throws(RunStoreError) -> String {
        if let known = runIds.withLock({ $0[seq] }) { return known }
        var id = ""
        try connection.query(
            "SELECT id FROM runs WHERE seq = ?1",
            bind: { (statement) throws(RunStoreError) in
                try statement.bind(1, seq)
            }
        ) { (row) throws(RunStoreError) in id = row.text(0) ?? "" }
        runIds.withLock { $0[seq] = id }
        return id
    }
}
