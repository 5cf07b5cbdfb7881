import Foundation
import PipelineCore
@testable import RunJournal
import Testing

private func keyed(_ step: Int, _ row: Int, key: String, target: String? = nil) -> LedgerItem {
    LedgerItem(key: LedgerKey(step: step, row: row), stepId: "send", origin: "rows.csv:\(row + 1)", digest: "digest-\(row)",
               idempotencyKey: key, target: target)
}

/// Idempotency keys across runs, settling unknown items, finding items, and the move from schema 1.
@Suite struct JournalIdempotencyTests {
    @Test("priorSend finds the pipeline's accepted key within the window, not another pipeline's, not the asker")
    func priorSendAcrossRuns() throws {
        try withTemporaryDirectory { directory in
            let journal = try Journal(path: directory + "/journal.sqlite")
            let now = Date().timeIntervalSince1970
            let first = try journal.startRun(identity: "a", pipeline: "/p/digest.yaml", pid: 1, now: now)
            let ledger = journal.ledger(run: first.id)
            try ledger.markSending([keyed(1, 1, key: "k1"), keyed(1, 2, key: "k2")])
            try ledger.record([LedgerOutcome(item: keyed(1, 1, key: "k1"), state: .accepted, notificationId: "n1")])
            let other = try journal.startRun(identity: "b", pipeline: "/p/other.yaml", pid: 1, now: now)
            try journal.ledger(run: other.id).markSending([keyed(1, 1, key: "k3")])
            try journal.ledger(run: other.id).record([LedgerOutcome(item: keyed(1, 1, key: "k3"), state: .accepted)])

            let second = try journal.startRun(identity: "c", pipeline: "/p/digest.yaml", pid: 2, now: now)
            let asking = journal.ledger(run: second.id)
            let prior = try #require(try asking.priorSend(key: "k1", since: now - 60, excluding: LedgerKey(step: 1, row: 1)))
            #expect(prior.runId == first.id && prior.state == .accepted && !prior.sameRun && prior.origin == "rows.csv:2")
            #expect(prior.notificationId == "n1")
            // k2 was left `sending` by the first run: of unknown fate, still found.
            #expect(try asking.priorSend(key: "k2", since: now - 60, excluding: LedgerKey(step: 1, row: 2))?.state == .sending)
            // Outside the window, of another pipeline, or the asking item itself: nothing.
            #expect(try asking.priorSend(key: "k1", since: now + 60, excluding: LedgerKey(step: 1, row: 1)) == nil)
            #expect(try asking.priorSend(key: "k3", since: now - 60, excluding: LedgerKey(step: 1, row: 1)) == nil)
            #expect(try ledger.priorSend(key: "k1", since: now - 60, excluding: LedgerKey(step: 1, row: 1)) == nil)
            // The same run's other row with the key is its own prior.
            #expect(try ledger.priorSend(key: "k1", since: now - 60, excluding: LedgerKey(step: 1, row: 9))?.sameRun == true)
            // …even while only `sending` and another run has the key accepted: this run's own row comes first.
            try asking.markSending([keyed(1, 1, key: "k1")])
            #expect(try asking.priorSend(key: "k1", since: now - 60, excluding: LedgerKey(step: 1, row: 2))?.sameRun == true)
            // A dry run's read-only view sees the same, and cannot write.
            let view = journal.readOnlyLedger(pipeline: "/p/digest.yaml")
            #expect(!view.isWritable)
            #expect(try view.priorSend(key: "k1", since: now - 60, excluding: LedgerKey(step: 1, row: 1))?.runId == first.id)
            #expect(throws: LedgerError.self) { try view.markSending([keyed(1, 5, key: "k5")]) }
        }
    }

    @Test("resolve settles unknown items as delivered or to resend, records who, and completes a partial run")
    func resolveUnknownItems() throws {
        try withTemporaryDirectory { directory in
            let (journal, run) = try journalWithRun(in: directory)
            let ledger = journal.ledger(run: run.id)
            try ledger.markSending((1...4).map { keyed(1, $0, key: "k\($0)") })
            try ledger.record([
                LedgerOutcome(item: keyed(1, 1, key: "k1"), state: .accepted),
                LedgerOutcome(item: keyed(1, 2, key: "k2"), state: .unknown, error: "no answer after writing"),
                LedgerOutcome(item: keyed(1, 3, key: "k3"), state: .unknown, error: "500"),
            ])  // row 4 stays `sending`
            try journal.finishRun(id: run.id, state: .partial, exitCode: 3, summary: nil, now: novemberMorning)

            let resend = try journal.resolve(run: run.id, as: .resend, step: 1, rows: [3...3], by: "bob", note: nil, now: novemberMorning)
            #expect(resend == Journal.Resolved(settled: 1, remaining: 3, completed: false))
            let third = try #require(try journal.items(run: run.id, states: [.failed], limit: 10).first)
            #expect(third.retriable && third.key.row == 3)
            #expect(third.resolution == "resend: settled by bob at 2026-11-22T04:12:00Z (was unknown: 500)")

            let delivered = try journal.resolve(run: run.id, as: .delivered, step: nil, rows: [], by: "alice", note: "checked telemetry",
                                                now: novemberMorning)
            #expect(delivered == Journal.Resolved(settled: 2, remaining: 1, completed: false), "row 3 is still to be resent")
            let second = try #require(try ledger.entry(LedgerKey(step: 1, row: 2)))
            #expect(second.state == .accepted && second.error == nil)
            #expect(try journal.run(matching: run.id)?.status == .partial)

            // Once the resend went out (row 3 accepted), nothing is left: a last resolution completes the run.
            try ledger.markSending([keyed(1, 3, key: "k3")])
            try ledger.record([LedgerOutcome(item: keyed(1, 3, key: "k3"), state: .unknown, error: "504")])
            let last = try journal.resolve(run: run.id, as: .delivered, step: nil, rows: [], by: "alice", note: nil, now: novemberMorning)
            #expect(last.completed && last.remaining == 0)
            #expect(try journal.run(matching: run.id)?.status == .completed)
            #expect(try journal.run(matching: run.id)?.exitCode == 0)
        }
    }

    @Test("find matches keys, origins and whole words of targets, newest first")
    func findItems() throws {
        try withTemporaryDirectory { directory in
            let (journal, run) = try journalWithRun(in: directory)
            let ledger = journal.ledger(run: run.id)
            try ledger.markSending([keyed(1, 1, key: "digest-u0203", target: "$UserId:{u0203}"),
                                    keyed(1, 2, key: "digest-u02031", target: "$UserId:{u02031}")])
            #expect(try journal.find("u0203", pipeline: nil, since: nil, limit: 10).map(\.item.key.row) == [1])
            #expect(try journal.find("digest-u02031", pipeline: nil, since: nil, limit: 10).map(\.item.key.row) == [2])
            #expect(try journal.find("rows.csv:3", pipeline: nil, since: nil, limit: 10).map(\.item.key.row) == [2])
            #expect(try journal.find("u0203", pipeline: "/elsewhere.yaml", since: nil, limit: 10).isEmpty)
            #expect(try journal.find("u0203", pipeline: nil, since: Date().timeIntervalSince1970 + 60, limit: 10).isEmpty)
            #expect(Journal.holdsWord("a u0203 b", "u0203") && !Journal.holdsWord("u0203-x", "u0203") && !Journal.holdsWord("xu0203", "u0203"))
        }
    }

    @Test("a schema 1 journal is brought to 2: keys and targets added, errors no longer start with their origin")
    func migratesFromVersion1() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            do {
                let old = try SQLiteConnection(path: path)
                try old.executeScript(JournalSchema.version1)
                try old.executeScript("""
                    INSERT INTO runs (seq, id, identity, pipeline, started_at, status, pid) VALUES (1, 'r1', 'i', '/p.yaml', 1, 'partial', 1);
                    INSERT INTO items (run, step, row, step_id, origin, digest, state, error, updated_at)
                        VALUES (1, 1, 1, 'send', 'rows.csv:2', 'd', 'failed', 'rows.csv:2: the row has no ''userId''', 1),
                               (1, 1, 2, 'send', 'rows.csv:3', 'd', 'failed', 'rows.csv:3: the row has no ''userId''', 1);
                    """)
            }
            let journal = try Journal(path: path)
            let groups = try journal.failureGroups(run: "r1", examples: 3)
            #expect(groups.map(\.error) == ["the row has no 'userId'"])
            #expect(groups.first?.count == 2 && groups.first?.examples == ["rows.csv:2", "rows.csv:3"])
            #expect(try journal.items(run: "r1", states: [], limit: 10).allSatisfy { $0.idempotencyKey == nil })
        }
    }
}
