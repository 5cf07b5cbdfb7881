import Foundation
import PipelineCore
@testable import RunJournal
import RunStore
import Testing

private func keyed(_ step: Int, _ row: Int, key: String, target: String? = nil) -> LedgerItem {
    LedgerItem(key: LedgerKey(step: step, row: row), stepId: "send", origin: "rows.csv:\(row + 1)", digest: "digest-\(row)",
               idempotencyKey: key, target: target)
}

/// Writes a journal file as an older pushline left it: the schema scripts up to that version, then `rows`.
private func olderJournal(at path: String, _ scripts: [String], rows: String) throws {
    let old = try SQLiteConnection(path: path)
    for script in scripts + [rows] { try old.executeScript(script) }
}

/// The SQLite journal's side of idempotency keys: the moves from schemas 1 and 2.
/// (What every run store must do with keys is in the contract suite, `Tests/RunStoreTests`.)
@Suite struct JournalSchemaTests {
    @Test("a schema 1 journal is brought to 2: keys and targets added, errors no longer start with their origin")
    func migratesFromVersion1() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            try olderJournal(at: path, [JournalSchema.version1], rows: """
                    INSERT INTO runs (seq, id, identity, pipeline, started_at, status, pid) VALUES (1, 'r1', 'i', '/p.yaml', 1, 'partial', 1);
                    INSERT INTO items (run, step, row, step_id, origin, digest, state, error, updated_at)
                        VALUES (1, 1, 1, 'send', 'rows.csv:2', 'd', 'failed', 'rows.csv:2: the row has no ''userId''', 1),
                               (1, 1, 2, 'send', 'rows.csv:3', 'd', 'failed', 'rows.csv:3: the row has no ''userId''', 1);
                    """)
            let journal = try Journal(path: path)
            let groups = try journal.failureGroups(run: "r1", examples: 3)
            #expect(groups.map(\.error) == ["the row has no 'userId'"])
            #expect(groups.first?.count == 2 && groups.first?.examples == ["rows.csv:2", "rows.csv:3"])
            #expect(try journal.items(run: "r1", states: [], limit: 10).allSatisfy { $0.idempotencyKey == nil })
        }
    }

    @Test("a schema 2 journal is brought to 3: its runs are runs of every row (no shard), resumed as before")
    func migratesFromVersion2() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            try olderJournal(at: path, [JournalSchema.version1, JournalSchema.version2], rows: """
                    INSERT INTO runs (seq, id, identity, pipeline, started_at, status, pid) VALUES (1, 'r1', 'i', '/p.yaml', 1, 'interrupted', 1);
                    """)
            let journal = try Journal(path: path)
            let run = try #require(try journal.latestRun(identity: "i"))
            #expect(run.id == "r1" && run.shard == nil)
            #expect(try journal.latestRun(identity: "i", shard: Shard("0/2")) == nil)
            let part = try journal.startRun(identity: "i", pipeline: "/p.yaml", shard: Shard("1/2"), pid: 2, now: 2)
            #expect(try journal.latestRun(identity: "i", shard: Shard("1/2")) == part)
            #expect(try journal.runs(identity: "i", limit: 10).map(\.id) == [part.id, "r1"])
        }
    }

    @Test("a schema 3 journal is brought to 5: it gains the shared pace (a pause recorded through it is read back) and generations (its runs are generation 0)")
    func migratesFromVersion3() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            try olderJournal(at: path, [JournalSchema.version1, JournalSchema.version2, JournalSchema.version3],
                             rows: "INSERT INTO runs (id, identity, pipeline, started_at, status, pid, resumes, shard) "
                                 + "VALUES ('r1', 'i', '/p.yaml', 1000, 'completed', 7, 0, '1/4')")
            let journal = try Journal(path: path)
            #expect(try journal.runs(identity: "i", limit: 5).map(\.generation) == [0])
            #expect(journal.reserve(hub: "h", budget: nil, count: 0) == 0)
            journal.pause(hub: "h", seconds: 60)
            let left = try #require(journal.reserve(hub: "h", budget: nil, count: 0))
            #expect(left > 59 && left <= 60)
            var version = 0
            try SQLiteConnection(path: path).query("PRAGMA user_version") { row throws(RunStoreError) in version = row.int(0) }
            #expect(version == 5)
        }
    }
}
