import Foundation
import PipelineCore
import RunStore
import SQLiteRunStore
import Testing

@Suite("Journal: volume")
struct JournalVolumeTests {
    @Test("20,000 items recorded in batches of 64 are all counted and readable")
    func twentyThousandItems() async throws {
        try await withTemporaryDirectory { directory in
            let (journal, run) = try await journalWithRun(in: directory)
            let ledger = journal.ledger(run: run.id)
            let total = 20_000
            for start in stride(from: 1, through: total, by: 64) {
                let batch = (start...min(start + 63, total)).map { item(1, $0) }
                try await ledger.markSending(batch)
                try await ledger.record(
                    batch.map { item in
                        item.key.row % 10 == 0
                            ? LedgerOutcome(item: item, state: .failed, error: "429 Too Many Requests", retriable: true)
                            : LedgerOutcome(item: item, state: .accepted, notificationId: "n\(item.key.row)")
                    })
            }

            await #expect(
                try journal.counts(run: run.id) == [
                    StepCount(step: 1, stepId: "send", state: .accepted, count: 18_000),
                    StepCount(step: 1, stepId: "send", state: .failed, count: 2_000),
                ])
            #expect(try await journal.items(run: run.id, states: [.sending], limit: 10).isEmpty)
            // A resume looks up every row: spot-check the point lookup across the range.
            for row in stride(from: 1, through: total, by: 997) {
                let entry = try #require(try await ledger.entry(LedgerKey(step: 1, row: row)))
                #expect(entry.attempts == 1)
                #expect(entry.state == (row % 10 == 0 ? .failed : .accepted))
            }
            #expect(try await ledger.entry(LedgerKey(step: 1, row: total + 1)) == nil)
            let groups = try await journal.failureGroups(run: run.id, examples: 3)
            #expect(
                groups == [
                    FailureGroup(
                        step: 1, stepId: "send", state: .failed, error: "429 Too Many Requests",
                        count: 2_000, examples: ["rows.csv:10", "rows.csv:20", "rows.csv:30"])
                ])
        }
    }
}
