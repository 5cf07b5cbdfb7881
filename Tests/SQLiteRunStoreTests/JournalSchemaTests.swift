import Foundation
import PipelineCore
import RunStore
import Testing

@testable import SQLiteRunStore

private func keyed(_ step: Int, _ row: Int, key: String, target: String? = nil) -> LedgerItem {
    LedgerItem(
        key: LedgerKey(step: step, row: row), stepId: "send", origin: "rows.csv:\(row + 1)", digest: "digest-\(row)",
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
    func migratesFromVersion1() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            try olderJournal(
                at: path, [JournalSchema.version1],
                rows: """
                    INSERT INTO runs (seq, id, identity, pipeline, started_at, status, pid) VALUES (1, 'r1', 'i', '/p.yaml', 1, 'partial', 1);
                    INSERT INTO items (run, step, row, step_id, origin, digest, state, error, updated_at)
                        VALUES (1, 1, 1, 'send', 'rows.csv:2', 'd', 'failed', 'rows.csv:2: the row has no ''userId''', 1),
                               (1, 1, 2, 'send', 'rows.csv:3', 'd', 'failed', 'rows.csv:3: the row has no ''userId''', 1);
                    """)
            let journal = try Journal(path: path)
            let groups = try await journal.failureGroups(run: "r1", examples: 3)
            #expect(groups.map(\.error) == ["the row has no 'userId'"])
            #expect(groups.first?.count == 2 && groups.first?.examples == ["rows.csv:2", "rows.csv:3"])
            #expect(try await journal.items(run: "r1", states: [], limit: 10).allSatisfy { $0.idempotencyKey == nil })
        }
    }

    @Test("a schema 2 journal is brought to 3: its runs are runs of every row (no shard), resumed as before")
    func migratesFromVersion2() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            try olderJournal(
                at: path, [JournalSchema.version1, JournalSchema.version2],
                rows: """
                    INSERT INTO runs (seq, id, identity, pipeline, started_at, status, pid) VALUES (1, 'r1', 'i', '/p.yaml', 1, 'interrupted', 1);
                    """)
            let journal = try Journal(path: path)
            let run = try #require(try await journal.latestRun(identity: "i"))
            #expect(run.id == "r1" && run.shard == nil)
            #expect(try await journal.latestRun(identity: "i", shard: Shard("0/2")) == nil)
            let part = try await journal.startRun(
                identity: "i", pipeline: "/p.yaml", shard: Shard("1/2"), pid: 2, now: 2)
            #expect(try await journal.latestRun(identity: "i", shard: Shard("1/2")) == part)
            #expect(try await journal.runs(identity: "i", limit: 10).map(\.id) == [part.id, "r1"])
        }
    }

    @Test(
        "a schema 3 journal is brought to 7: it gains the shared pace (a pause recorded through it is read back) and generations (its runs are generation 0)"
    )
    func migratesFromVersion3() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            try olderJournal(
                at: path, [JournalSchema.version1, JournalSchema.version2, JournalSchema.version3],
                rows: "INSERT INTO runs (id, identity, pipeline, started_at, status, pid, resumes, shard) "
                    + "VALUES ('r1', 'i', '/p.yaml', 1000, 'completed', 7, 0, '1/4')")
            let journal = try Journal(path: path)
            #expect(try await journal.runs(identity: "i", limit: 5).map(\.generation) == [0])
            await #expect(journal.reserve(hub: "h", budget: nil, count: 0) == 0)
            await journal.pause(hub: "h", seconds: 60)
            // Read back on the journal's clock (the system's): some of the minute may have passed on a loaded machine.
            let left = try #require(await journal.reserve(hub: "h", budget: nil, count: 0))
            #expect(left > 0 && left <= 60)
            var version = 0
            try SQLiteConnection(path: path).query("PRAGMA user_version") { row throws(RunStoreError) in
                version = row.int(0)
            }
            #expect(version == JournalSchema.version)
        }
    }

    @Test(
        "a schema 7 journal (before steps kept their outputs) is brought to 8: its steps and items stay, and a completed step is recorded"
    )
    func migratesFromVersion7() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            var run = ""
            do {
                let journal = try Journal(path: path)
                run = try await journal.startRun(identity: "i", pipeline: "p", pid: 1, now: novemberMorning).id
                try await JournalLedger(journal: journal, run: run).markSending([keyed(1, 1, key: "k1")])
            }
            try SQLiteConnection(path: path).executeScript(
                """
                ALTER TABLE steps DROP COLUMN summary;
                ALTER TABLE steps DROP COLUMN outputs;
                DROP TABLE spool_rows;
                DROP TABLE spools;
                PRAGMA user_version = 7;
                """)
            let journal = try Journal(path: path)
            let ledger = JournalLedger(journal: journal, run: run)
            #expect(try await ledger.entry(LedgerKey(step: 1, row: 1))?.state == .sending)
            #expect(try await ledger.completedStep(1) == nil)
            try await ledger.recordCompleted(
                CompletedStep(step: 1, stepId: "send", summary: "sent", outputs: ["accepted": .integer(1)]))
            #expect(try await journal.completedSteps(run: run).map(\.outputs) == [["accepted": .integer(1)]])
            var version = 0
            try SQLiteConnection(path: path).query("PRAGMA user_version") { row throws(RunStoreError) in
                version = row.int(0)
            }
            #expect(version == JournalSchema.version)
        }
    }

    @Test(
        "a schema 8 journal (before rows were spooled) is brought to 9: its runs stay, and a spool is filled and read back"
    )
    func migratesFromVersion8() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            var record: RunRecord?
            do {
                let journal = try Journal(path: path)
                record = try await journal.startRun(identity: "i", pipeline: "p", pid: 1, now: novemberMorning)
            }
            try SQLiteConnection(path: path).executeScript(
                """
                DROP TABLE spool_rows;
                DROP TABLE spools;
                PRAGMA user_version = 8;
                """)
            let journal = try Journal(path: path)
            let run = try #require(record)
            #expect(try await journal.run(matching: run.id)?.identity == "i")
            guard
                case .fill(let filler) = try await #require(journal.ledger(for: run).rowSpool).claimSpool(
                    step: 1, source: "s", now: novemberMorning)
            else {
                Issue.record("a migrated journal fills spools")
                return
            }
            try await filler.append(["{}"])
            #expect(try await filler.complete(columns: [], count: 1, digest: "d", now: novemberMorning).count == 1)
            await filler.release()
            var version = 0
            try SQLiteConnection(path: path).query("PRAGMA user_version") { row throws(RunStoreError) in
                version = row.int(0)
            }
            #expect(version == 9)
        }
    }

    @Test(
        "a schema 5 journal (the release before names) is brought to 6: runs are filed under their pipeline's name with their path kept, declared keys under the pipeline, and the run resumes"
    )
    func migratesFromVersion5() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            try olderJournal(
                at: path,
                [
                    JournalSchema.version1, JournalSchema.version2, JournalSchema.version3, JournalSchema.version4,
                    JournalSchema.version5,
                ],
                rows: """
                    INSERT INTO runs (seq, id, identity, pipeline, started_at, status, pid) VALUES
                        (1, 'r1', 'i1', '/srv/a/pipelines/digest.yaml', 1000, 'completed', 1),
                        (2, 'r2', 'i2', '/srv/b/pipelines/digest.yaml', 2000, 'interrupted', 2),
                        (3, 'r3', 'i3', '/srv/a/pipelines/news.yml', 3000, 'completed', 3);
                    INSERT INTO items (run, step, row, step_id, origin, digest, state, attempts, updated_at, idempotency_key, target) VALUES
                        (1, 1, 1, 'send', 'rows.csv:2', 'd1', 'accepted', 1, 1000, 'step1:digest-u1', '$UserId:{u1}'),
                        (2, 1, 1, 'send', 'rows.csv:2', 'd1', 'accepted', 1, 2000, 'request:00112233445566778899aabbccddeeff', NULL),
                        (2, 2, 1, 'register', 'devices.json:1', 'd2', 'accepted', 1, 2000, 'device:ffeeddccbbaa99887766554433221100', NULL);
                    """)
            let journal = try Journal(path: path)
            let runs = try await journal.runs(limit: 10)
            #expect(runs.map(\.pipeline) == ["news", "digest", "digest"])
            #expect(
                runs.map(\.path) == [
                    "/srv/a/pipelines/news.yml", "/srv/b/pipelines/digest.yaml", "/srv/a/pipelines/digest.yaml",
                ])
            let keys =
                try await journal.items(run: "r1", states: [], limit: 10).map(\.idempotencyKey)
                + journal.items(run: "r2", states: [], limit: 10)
                .map(\.idempotencyKey)
            #expect(
                keys == [
                    "digest/step1:digest-u1", "request:00112233445566778899aabbccddeeff",
                    "device:ffeeddccbbaa99887766554433221100",
                ])
            // Each name remembers the newest path it was run from; what the file held is unknown.
            await #expect(
                try journal.pipelineHome(name: "digest")
                    == PipelineHome(
                        name: "digest", path: "/srv/b/pipelines/digest.yaml",
                        contentDigest: nil, declared: false, seenAt: 2000))
            // The interrupted run is found by its identity as before, and resumes.
            let resumed = try await journal.resumeRun(
                id: try #require(try journal.latestRun(identity: "i2")).id, path: "/srv/c/digest.yaml", pid: 9,
                now: 4000)
            #expect(resumed.status == .running && resumed.path == "/srv/c/digest.yaml" && resumed.pipeline == "digest")
            #expect(try await journal.runningRuns(pipeline: "digest", limit: 5).map(\.id) == ["r2"])

            // Default keys are stored compacted, declared ones as text; a key the older release wrote still holds back the
            // same notification.
            var types: [String] = []
            try SQLiteConnection(path: path).query("SELECT typeof(idempotency_key) FROM items ORDER BY run, step") {
                (row) throws(RunStoreError) in
                types.append(row.text(0) ?? "")
            }
            #expect(types == ["text", "blob", "blob"])
            let prior = try await journal.ledger(run: "r1").priorSend(
                key: "request:00112233445566778899aabbccddeeff", since: 0,
                excluding: LedgerKey(step: 1, row: 1))
            #expect(prior?.runId == "r2" && prior?.origin == "rows.csv:2" && prior?.key == LedgerKey(step: 1, row: 1))
        }
    }

    @Test(
        "an older journal is not migrated while a run holds a lock beside it: that run would go on writing the old way")
    func refusesToMigrateUnderALiveRun() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            try olderJournal(
                at: path,
                [
                    JournalSchema.version1, JournalSchema.version2, JournalSchema.version3, JournalSchema.version4,
                    JournalSchema.version5,
                ], rows: "")
            guard
                case .acquired(let lock) = try FileRunLock.acquire(
                    pipeline: "/srv/a/digest.yaml", directory: directory + "/locks",
                    holder: LockHolder(pid: 77, host: "old-box", startedAt: 1000))
            else {
                Issue.record("the lock was not taken")
                return
            }
            let error = #expect(throws: RunStoreError.self) { try Journal(path: path) }
            #expect(error?.kind == .unavailable && error?.message.contains("pid 77 on old-box") == true)
            var version = 0
            try SQLiteConnection(path: path).query("PRAGMA user_version") { row throws(RunStoreError) in
                version = row.int(0)
            }
            #expect(version == 5)
            _ = lock
        }
    }
}
