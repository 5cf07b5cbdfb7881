import Foundation
import PipelineCore
import RunJournal
import Testing

@Suite("JournalLedger")
struct JournalLedgerTests {
    @Test("markSending records the item as sending with one attempt; again counts a second attempt")
    func markSendingCountsAttempts() throws {
        try withTemporaryDirectory { directory in
            let (journal, run) = try journalWithRun(in: directory)
            let ledger: any ItemLedger = journal.ledger(run: run.id)
            let key = LedgerKey(step: 1, row: 7)
            #expect(try ledger.entry(key) == nil)

            try ledger.markSending([item(1, 7), item(1, 8)])
            #expect(try ledger.entry(key) == LedgerEntry(key: key, digest: "digest-7", state: .sending, attempts: 1))

            try ledger.markSending([item(1, 7)])
            #expect(try ledger.entry(key)?.attempts == 2)
            #expect(try ledger.entry(LedgerKey(step: 1, row: 8))?.attempts == 1)
        }
    }

    @Test("record stores an accepted outcome with its notification id, keeping the attempt count")
    func recordAccepted() throws {
        try withTemporaryDirectory { directory in
            let (journal, run) = try journalWithRun(in: directory)
            let ledger = journal.ledger(run: run.id)
            try ledger.markSending([item(0, 1)])
            try ledger.record([LedgerOutcome(item: item(0, 1), state: .accepted, notificationId: "n-123")])

            let entry = try #require(try ledger.entry(LedgerKey(step: 0, row: 1)))
            #expect(entry == LedgerEntry(key: LedgerKey(step: 0, row: 1), digest: "digest-1", state: .accepted,
                                         attempts: 1, notificationId: "n-123"))
        }
    }

    @Test("assignId keeps a sending item's id across a reopen, and refuses an item never marked sending")
    func assignIdIsDurable() throws {
        try withTemporaryDirectory { directory in
            let (journal, run) = try journalWithRun(in: directory)
            let key = LedgerKey(step: 2, row: 5)
            try journal.ledger(run: run.id).markSending([item(2, 5)])
            try journal.ledger(run: run.id).assignId("reg-42", to: key)

            let reopened = try Journal(path: journal.path)
            let entry = try #require(try reopened.ledger(run: run.id).entry(key))
            #expect(entry.state == .sending)
            #expect(entry.notificationId == "reg-42")
            #expect(throws: LedgerError.self) { try reopened.ledger(run: run.id).assignId("reg-43", to: LedgerKey(step: 2, row: 6)) }
            // A settled item's id is history.
            try reopened.ledger(run: run.id).record([LedgerOutcome(item: item(2, 5), state: .accepted, notificationId: "reg-42")])
            #expect(throws: LedgerError.self) { try reopened.ledger(run: run.id).assignId("reg-44", to: key) }
            #expect(try reopened.ledger(run: run.id).entry(key)?.notificationId == "reg-42")
        }
    }

    @Test("markSending(creating:) marks a new attempt and keeps the earlier id in the same transaction")
    func markSendingCreatingKeepsTheId() throws {
        try withTemporaryDirectory { directory in
            let (journal, run) = try journalWithRun(in: directory)
            let ledger = journal.ledger(run: run.id)
            let key = LedgerKey(step: 1, row: 1)
            try ledger.markSending([item(1, 1)])
            try ledger.assignId("reg-7", to: key)
            try ledger.markSending(item(1, 1), creating: "reg-7")
            let entry = try #require(try ledger.entry(key))
            #expect(entry.state == .sending)
            #expect(entry.attempts == 2)
            #expect(entry.notificationId == "reg-7")
        }
    }

    @Test("record of an item never marked sending inserts it with no attempt")
    func recordWithoutSending() throws {
        try withTemporaryDirectory { directory in
            let (journal, run) = try journalWithRun(in: directory)
            let ledger = journal.ledger(run: run.id)
            try ledger.record([LedgerOutcome(item: item(0, 3), state: .failed, error: "missing column 'tag'")])

            let entry = try #require(try ledger.entry(LedgerKey(step: 0, row: 3)))
            #expect(entry.state == .failed)
            #expect(entry.attempts == 0)
            #expect(entry.error == "missing column 'tag'")
            #expect(entry.retriable == false)
        }
    }

    @Test("a new attempt clears the previous outcome until its own is recorded")
    func retryClearsOutcome() throws {
        try withTemporaryDirectory { directory in
            let (journal, run) = try journalWithRun(in: directory)
            let ledger = journal.ledger(run: run.id)
            let key = LedgerKey(step: 0, row: 1)
            try ledger.markSending([item(0, 1)])
            try ledger.record([LedgerOutcome(item: item(0, 1), state: .unknown, error: "504 Gateway Timeout", retriable: true)])
            #expect(try ledger.entry(key) == LedgerEntry(key: key, digest: "digest-1", state: .unknown, attempts: 1,
                                                         error: "504 Gateway Timeout", retriable: true))

            try ledger.markSending([item(0, 1)])
            #expect(try ledger.entry(key) == LedgerEntry(key: key, digest: "digest-1", state: .sending, attempts: 2))
        }
    }

    @Test("a batch larger than one statement, with a key repeated, is written in order")
    func largeBatchWithRepeat() throws {
        try withTemporaryDirectory { directory in
            let (journal, run) = try journalWithRun(in: directory)
            let ledger = journal.ledger(run: run.id)
            // 40 rows span several multi-row statements; row 5 appears twice, as two attempts would.
            let batch = (1...39).map { item(2, $0) } + [item(2, 5)]
            try ledger.markSending(batch)
            #expect(try ledger.entry(LedgerKey(step: 2, row: 5))?.attempts == 2)
            #expect(try ledger.entry(LedgerKey(step: 2, row: 39))?.attempts == 1)

            try ledger.record(batch.map { LedgerOutcome(item: $0, state: .accepted, notificationId: "n\($0.key.row)") })
            #expect(try journal.counts(run: run.id) == [StepCount(step: 2, stepId: "send", state: .accepted, count: 39)])
            #expect(try ledger.entry(LedgerKey(step: 2, row: 17))?.notificationId == "n17")
        }
    }

    @Test("items belong to their run: another run's ledger does not see them")
    func scopedToRun() throws {
        try withTemporaryDirectory { directory in
            let (journal, run) = try journalWithRun(in: directory)
            let other = try journal.startRun(identity: "other", pipeline: "p", pid: 1, now: novemberMorning)
            try journal.ledger(run: run.id).markSending([item(0, 1)])
            #expect(try journal.ledger(run: other.id).entry(LedgerKey(step: 0, row: 1)) == nil)
            #expect(try journal.ledger(run: run.id).entry(LedgerKey(step: 0, row: 1)) != nil)
        }
    }

    @Test("text round-trips exactly: empty, non-ASCII, embedded NUL")
    func textRoundTrips() throws {
        try withTemporaryDirectory { directory in
            let (journal, run) = try journalWithRun(in: directory)
            let ledger = journal.ledger(run: run.id)
            let odd = LedgerItem(key: LedgerKey(step: 0, row: 1), stepId: "send", origin: "", digest: "a\u{0}b")
            try ledger.record([LedgerOutcome(item: odd, state: .failed, notificationId: "", error: "Zürich 🚀 ‘quoted’")])

            let entry = try #require(try ledger.entry(odd.key))
            #expect(entry.digest == "a\u{0}b")
            #expect(entry.notificationId == "")
            #expect(entry.error == "Zürich 🚀 ‘quoted’")
            let listed = try journal.items(run: run.id, states: [], limit: 10)
            #expect(listed.map(\.origin) == [""])
        }
    }

    @Test("a ledger for a run the journal does not have fails with a LedgerError naming the run")
    func unknownRun() throws {
        try withTemporaryDirectory { directory in
            let journal = try Journal(path: directory + "/journal.sqlite")
            let ledger = journal.ledger(run: "20260101-000000-000000")
            let error = #expect(throws: LedgerError.self) { try ledger.markSending([item(0, 1)]) }
            #expect(error?.message.contains("no run 20260101-000000-000000") == true)
            #expect(error?.message.contains(journal.path) == true)
            #expect(throws: LedgerError.self) { try ledger.entry(LedgerKey(step: 0, row: 1)) }
            #expect(try journal.counts(run: "20260101-000000-000000").isEmpty)
        }
    }

    @Test("empty batches write nothing")
    func emptyBatches() throws {
        try withTemporaryDirectory { directory in
            let (journal, run) = try journalWithRun(in: directory)
            let ledger = journal.ledger(run: run.id)
            try ledger.markSending([])
            try ledger.record([])
            #expect(try journal.counts(run: run.id).isEmpty)
        }
    }
}
