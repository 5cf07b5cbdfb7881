import Foundation
import PipelineCore
import RunStore
import SQLiteRunStore
import Synchronization
import Testing

@Suite("Journal: durability and sharing")
struct JournalSharingTests {
    @Test("what was recorded survives closing the journal and is read back by a new one")
    func survivesReopen() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            let runID: String
            do {
                let (journal, run) = try await journalWithRun(in: directory)
                runID = run.id
                let ledger = journal.ledger(run: run.id)
                try await ledger.markSending([item(0, 1), item(0, 2)])
                try await ledger.record([LedgerOutcome(item: item(0, 1), state: .accepted, notificationId: "n1")])
                // Row 2 stays `sending`: the process "dies" here.
            }
            let reopened = try Journal(path: path)
            let ledger = reopened.ledger(run: runID)
            #expect(try await ledger.entry(LedgerKey(step: 0, row: 1))?.notificationId == "n1")
            #expect(try await ledger.entry(LedgerKey(step: 0, row: 2))?.state == .sending)
            #expect(try await reopened.latestRun(identity: "abc123")?.id == runID)
        }
    }

    @Test("a second journal on the same file sees each commit at once, even one opened before it")
    func secondConnectionSeesCommits() async throws {
        try await withTemporaryDirectory { directory in
            let (writer, run) = try await journalWithRun(in: directory)
            let reader = try Journal(path: writer.path)
            let key = LedgerKey(step: 0, row: 1)
            #expect(try await reader.ledger(run: run.id).entry(key) == nil)

            try await writer.ledger(run: run.id).markSending([item(0, 1)])
            #expect(try await reader.ledger(run: run.id).entry(key)?.state == .sending)
            try await writer.ledger(run: run.id).record([LedgerOutcome(item: item(0, 1), state: .accepted)])
            #expect(try await reader.ledger(run: run.id).entry(key)?.state == .accepted)
        }
    }

    @Test("two journals on the same file can both write at the same time (WAL, busy timeout)")
    func twoWritersOnOneFile() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            let journals = [try Journal(path: path), try Journal(path: path)]
            var runs: [RunRecord] = []
            for (index, journal) in journals.enumerated() {
                runs.append(
                    try await journal.startRun(
                        identity: "writer\(index)", pipeline: "p", pid: Int32(index), now: novemberMorning))
            }
            // Two writers at once, each on its own journal (its own connection and queue), as two processes would be.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (journal, run) in zip(journals, runs) {
                    group.addTask {
                        let ledger = journal.ledger(run: run.id)
                        for batch in 0..<100 {
                            let items = (1...20).map { item(0, batch * 20 + $0) }
                            try await ledger.markSending(items)
                            try await ledger.record(items.map { LedgerOutcome(item: $0, state: .accepted) })
                        }
                    }
                }
                try await group.waitForAll()
            }
            let check = try Journal(path: path)
            for run in runs {
                #expect(
                    try await check.counts(run: run.id)
                        == [StepCount(step: 0, stepId: "send", state: .accepted, count: 2000)])
            }
        }
    }

    @Test("one journal can be shared by concurrent tasks")
    func sharedAcrossTasks() async throws {
        let directory = FileManager.default.temporaryDirectory.path + "/SQLiteRunStoreTests-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (journal, run) = try await journalWithRun(in: directory)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for step in 0..<8 {
                group.addTask {
                    let ledger = journal.ledger(run: run.id)
                    for row in 1...50 {
                        try await ledger.markSending([item(step, row)])
                        try await ledger.record([LedgerOutcome(item: item(step, row), state: .accepted)])
                        _ = try await journal.counts(run: run.id)
                    }
                }
            }
            try await group.waitForAll()
        }
        let counts = try await journal.counts(run: run.id)
        #expect(counts.count == 8)
        #expect(counts.allSatisfy { $0.state == .accepted && $0.count == 50 })
    }
}
