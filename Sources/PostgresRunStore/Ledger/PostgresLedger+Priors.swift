import Logging
import PipelineCore
import PostgresNIO
import RunStore

/// Looking up what runs already sent under an idempotency key: one query for any number of keys, whose candidates each
/// asker's own rule (`PriorAsk.best`) picks from, for one item, a batch's next rows, or a claim.
extension PostgresLedger {
    /// The newest item of any run with `key` that was accepted, is being sent or is of unknown fate, recorded at
    /// or after `since`; the item at `excluding` of this run is not counted. The key is its own scope: a default
    /// key names its hub, a declared one its pipeline and step.
    func priorSend(key: String, since: Double, excluding: LedgerKey) async throws(LedgerError) -> PriorSend? {
        try await priorSends([PriorAsk(key: key, item: excluding)], since: since)[excluding]
    }

    /// `priorSend` for each of `asks` in one query: a batch's next rows ask together, one round trip to the server
    /// instead of one per row.
    func priorSends(_ asks: [PriorAsk], since: Double) async throws(LedgerError) -> [LedgerKey: PriorSend] {
        guard !asks.isEmpty else { return [:] }
        let candidates = try await ledgerCall {
            try await self.store.withConnection("checking earlier sends") { connection in
                let seq = self.run == nil ? -1 : try await self.runSeq(connection)
                return try await Self.candidates(
                    connection, keys: asks.map(\.key), seq: seq, since: since, logger: self.store.logger)
            }
        }
        var found: [LedgerKey: PriorSend] = [:]
        for ask in asks {
            if let best = ask.best(among: candidates[ask.key] ?? []) { found[ask.item] = best }
        }
        return found
    }

    /// Every item that could be the prior send of one of `keys` (accepted, sending or unknown, recorded at or after
    /// `since`), by key; `seq` is the asking run's (-1 for none), whose own items are `sameRun`.
    static func candidates(
        _ connection: PostgresConnection, keys: [String], seq: Int, since: Double,
        logger: Logger
    ) async throws -> [String: [PriorSend]] {
        let rows = try await connection.execute(
            Candidates(seq: seq, keys: Array(Set(keys.map { StoredText.encode($0) })), since: since), logger: logger)
        var found: [String: [PriorSend]] = [:]
        for try await (key, runId, at, state, origin, sameRun, notificationId, step, itemRow) in rows {
            found[StoredText.decode(key), default: []].append(
                try prior(runId, at, state, origin, sameRun, notificationId, step, itemRow))
        }
        return found
    }

    /// The claim of a group commit, in one call (the schema's `claim`): checks the fence (under a share lock on its
    /// row), takes the transaction's advisory lock on each of `keys`, in one order so two claimers never deadlock (a
    /// second process claiming one of them waits until this transaction ends), then reads the keys' candidates as
    /// `candidates` does, once the locks are held.
    func claim(
        _ connection: PostgresConnection, keys: [String], seq: Int, since: Double
    ) async throws -> [String: [PriorSend]] {
        let asked = Claim(
            lockName: fence?.name ?? "", keys: Array(Set(keys.map { StoredText.encode($0) })), seq: seq, since: since)
        var epoch: Int?
        var first = true
        var found: [String: [PriorSend]] = [:]
        // Read to the end: a lock that times out fails here, not as "transaction aborted" in the next statement.
        for try await row in try await connection.execute(asked, logger: store.logger) {
            if first {
                epoch = row.0  // the first row is the fence's
                first = false
                continue
            }
            guard let key = row.1, let runId = row.2, let at = row.3, let state = row.4, let origin = row.5,
                let sameRun = row.6, let step = row.8, let itemRow = row.9
            else { throw RunStoreError("the run store's claim answered a row without its columns") }
            found[StoredText.decode(key), default: []].append(
                try Self.prior(runId, at, state, origin, sameRun, row.7, step, itemRow))
        }
        if let fence, epoch != fence.epoch {
            throw PostgresFailure.lostLock(location: store.location, pauses: store.pauses)
        }
        return found
    }

    private static func prior(
        _ runId: String, _ at: Double, _ state: String, _ origin: String, _ sameRun: Bool, _ notificationId: String?,
        _ step: Int, _ row: Int
    ) throws -> PriorSend {
        PriorSend(
            runId: runId, at: at, state: try PostgresRows.itemState(state), origin: StoredText.decode(origin),
            sameRun: sameRun, notificationId: StoredText.decode(notificationId), key: LedgerKey(step: step, row: row))
    }

    /// The query of `candidates`, prepared once per connection: the schema's function (version 8), whose plan reads the
    /// key index however few rows the table's statistics know of.
    struct Candidates: PostgresPreparedStatement {
        static let name = "pushline_candidates_v1"
        static let sql = "SELECT * FROM pushline.candidates($1, $2::text[], $3)"
        typealias Row = (String, String, Double, String, String, Bool, String?, Int, Int)
        var seq: Int
        var keys: [String]
        var since: Double

        func makeBindings() throws -> PostgresBindings {
            var binds = PostgresBindings(capacity: 3)
            binds.append(seq)
            binds.append(keys)
            binds.append(since)
            return binds
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// The schema's `claim`, prepared once per connection. Its first row carries the fence's epoch (NULL without a
    /// fence) and nothing else; each other row a candidate and no epoch.
    struct Claim: PostgresPreparedStatement {
        static let name = "pushline_claim_v1"
        static let sql = "SELECT * FROM pushline.claim($1, $2::text[], $3, $4)"
        typealias Row = (Int?, String?, String?, Double?, String?, String?, Bool?, String?, Int?, Int?)
        var lockName: String
        var keys: [String]
        var seq: Int
        var since: Double

        func makeBindings() throws -> PostgresBindings {
            var binds = PostgresBindings(capacity: 4)
            binds.append(lockName)
            binds.append(keys)
            binds.append(seq)
            binds.append(since)
            return binds
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }
}
