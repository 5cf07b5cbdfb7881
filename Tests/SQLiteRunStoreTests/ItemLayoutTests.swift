import Foundation
import PipelineCore
import RunStore
import Testing

@testable import SQLiteRunStore

/// How an item is laid out since schema 7: its state as a code, its step's id once per run and step, its target
/// compacted, its time in whole seconds, and a key index that holds four bytes of each default key. What matters is that
/// every item reads back as written and that the lookups still go through the index.
@Suite struct ItemLayoutTests {
    @Test(
        "targets of one user or installation are stored without their wrapping and read back exactly",
        arguments: [
            ("$UserId:{u0203}", 6), ("$InstallationId:{3f0c-11}", 8), ("$UserId:{}", nil),
            ("$UserId:{a} || $UserId:{b}", 17),
            ("news && sport", nil), ("$UserId:{é}", 3), ("$userid:{u1}", nil),
        ])
    func targets(_ text: String, _ bytes: Int?) {
        let stored = CompactTarget.encode(text)
        #expect(stored?.count == bytes)
        if let stored { #expect(CompactTarget.decode(stored) == text) }
    }

    @Test("every state has its own code, and the codes of the format's first version never change")
    func stateCodes() {
        #expect(Set(ItemState.allCases.map(StoredState.code)).count == ItemState.allCases.count)
        #expect(ItemState.allCases.map(StoredState.code) == [2, 0, 1, 3, 4, 5, 6])
        for state in ItemState.allCases { #expect(StoredState.state(StoredState.code(state)) == state) }
        #expect(StoredState.state(7) == nil)
    }

    @Test("an item is stored compactly and reads back as written: state code, step id once, target, whole seconds")
    func storedCompactly() async throws {
        try await withJournalAndRun { journal, run, path in
            let items = (1...3).map { row in
                LedgerItem(
                    key: LedgerKey(step: 2, row: row), stepId: "send", origin: "/srv/rows.csv:\(row + 1)",
                    digest: "36b7b00cb2cfe9f\(row)",
                    idempotencyKey: "request:cd1e11b25b24cef239f7432f0d2eb8\(row)c", target: "$UserId:{u\(row)}")
            }
            let ledger = journal.ledger(run: run.id)
            let before = Date().timeIntervalSince1970
            try await ledger.markSending(items)
            try await ledger.record([
                LedgerOutcome(item: items[0], state: .accepted, notificationId: "9165555e87ba4e4ab1980a49f00979d9-7"),
                LedgerOutcome(item: items[1], state: .failed, error: "410 gone"),
            ])

            let read = try await journal.items(run: run.id, states: [], limit: 10)
            #expect(read.map(\.state) == [.accepted, .failed, .sending])
            #expect(read.map(\.stepId) == ["send", "send", "send"])
            #expect(read.map(\.target) == ["$UserId:{u1}", "$UserId:{u2}", "$UserId:{u3}"])
            // Whole seconds, rounded up: never earlier than the write, so a dedupe window never ends early.
            #expect(read.allSatisfy { $0.updatedAt == $0.updatedAt.rounded() && $0.updatedAt >= before })
            await #expect(
                try journal.counts(run: run.id) == [
                    StepCount(step: 2, stepId: "send", state: .sending, count: 1),
                    StepCount(step: 2, stepId: "send", state: .accepted, count: 1),
                    StepCount(step: 2, stepId: "send", state: .failed, count: 1),
                ])
            #expect(try await journal.failureGroups(run: run.id, examples: 1).map(\.stepId) == ["send"])

            let db = try SQLiteConnection(path: path)
            var stored: [String] = []
            try db.query(
                "SELECT typeof(state) || ' ' || state || ' ' || typeof(target) || ' ' || typeof(updated_at) FROM items ORDER BY row"
            ) {
                (row) throws(RunStoreError) in stored.append(row.text(0) ?? "")
            }
            #expect(stored == ["integer 1 blob real", "integer 3 blob real", "integer 0 blob real"])
            var steps: [String] = []
            try db.query("SELECT step || ':' || step_id FROM steps") { (row) throws(RunStoreError) in
                steps.append(row.text(0) ?? "")
            }
            #expect(steps == ["2:send"], "one row per run and step")

            // `runs find` searches the target's text, whole or in part.
            for text in ["u2", "$UserId:{u2}", "UserId:{u2"] {
                await #expect(
                    try journal.find(text, pipeline: nil, since: nil, limit: 5).map(\.item.key.row) == [2], "\(text)")
            }
        }
    }

    @Test("a write that rolls back takes its step's id with it, and the ledger writes it again with the next item")
    func rolledBackStepIsWrittenAgain() async throws {
        try await withJournalAndRun { journal, run, path in
            let ledger = journal.ledger(run: run.id)
            try SQLiteConnection(path: path).executeScript(
                """
                CREATE TRIGGER refuse BEFORE INSERT ON items WHEN NEW.row = 99 BEGIN SELECT RAISE(ABORT, 'refused'); END;
                """)
            let refused = LedgerItem(
                key: LedgerKey(step: 3, row: 99), stepId: "tell ops", origin: "rows.csv:100", digest: "d")
            await #expect(throws: LedgerError.self) { try await ledger.markSending([refused]) }
            try SQLiteConnection(path: path).executeScript("DROP TRIGGER refuse;")
            try await ledger.markSending([
                LedgerItem(key: LedgerKey(step: 3, row: 1), stepId: "tell ops", origin: "rows.csv:2", digest: "d")
            ])
            #expect(try await journal.items(run: run.id, states: [], limit: 5).map(\.stepId) == ["tell ops"])
        }
    }

    @Test(
        "the dedupe lookups find earlier sends through the key index, by four bytes of the key, and compare the whole key"
    )
    func lookupsUseTheIndex() async throws {
        try await withJournalAndRun { journal, first, path in
            // Two keys that share the four bytes the index holds, and a declared key (stored as text, indexed whole).
            let keys = [
                "request:cd1e11b2000000000000000000000001", "request:cd1e11b2000000000000000000000002",
                "digest/step2:u3",
            ]
            let items = keys.enumerated().map { index, key in
                LedgerItem(
                    key: LedgerKey(step: 2, row: index + 1), stepId: "send", origin: "rows.csv:\(index + 2)",
                    digest: "d\(index)",
                    idempotencyKey: key, target: "$UserId:{u\(index)}")
            }
            let ledger = journal.ledger(run: first.id)
            try await ledger.record(items.map { LedgerOutcome(item: $0, state: .accepted) })

            let second = try await journal.startRun(identity: "j", pipeline: "digest", pid: 2, now: 2000)
            let asking = journal.ledger(run: second.id)
            for (index, key) in keys.enumerated() {
                let prior = try await asking.priorSend(key: key, since: 0, excluding: LedgerKey(step: 2, row: 1))
                #expect(prior?.key == LedgerKey(step: 2, row: index + 1), "\(key)")
            }
            await #expect(
                try asking.priorSend(
                    key: "request:cd1e11b2000000000000000000000003", since: 0, excluding: LedgerKey(step: 2, row: 1))
                    == nil,
                "the same four bytes, another key")
            let asks = (keys + ["request:cd1e11b2000000000000000000000003"]).enumerated().map { index, key in
                PriorAsk(key: key, item: LedgerKey(step: 2, row: index + 1))
            }
            let found = try await asking.priorSends(asks, since: 0)
            #expect(
                found.mapValues(\.key) == [
                    LedgerKey(step: 2, row: 1): LedgerKey(step: 2, row: 1),
                    LedgerKey(step: 2, row: 2): LedgerKey(step: 2, row: 2),
                    LedgerKey(step: 2, row: 3): LedgerKey(step: 2, row: 3),
                ])

            let db = try SQLiteConnection(path: path)
            for sql in [LedgerSQL.priorSend, LedgerSQL.priorSends] {
                var plan: [String] = []
                try db.query("EXPLAIN QUERY PLAN " + sql) { (row) throws(RunStoreError) in
                    plan.append(row.text(3) ?? "")
                }
                #expect(plan.contains { $0.contains("USING INDEX items_by_key") }, "\(plan)")
            }
        }
    }
}
