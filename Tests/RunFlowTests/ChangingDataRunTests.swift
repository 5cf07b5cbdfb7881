import CSQLite
import Engine
import Foundation
import PipelineCore
import RunFlow
import RunStore
import SQLiteRunStore
import Testing

/// The same command night after night over a table that changes: a query's rows are read by every new run, the same
/// rows again run nothing, a run cut off resumes with what it read, and one cut off too long ago expires.
@Suite("Runs for data that changes")
struct ChangingDataRunTests {
    static let pipeline =
        "version: 1\nname: nightly\n" + RunFlowFixture.declarations + """
            steps:
              - id: users
                query: { database: app.sqlite, sql: "select user_id as \\"userId\\" from users order by user_id" }
              - render: { template: alert, properties: { message: "${steps.users.count} users" } }

            """

    private func database(_ fixture: RunFlowFixture, _ sql: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open(fixture.directory + "/app.sqlite", &db) == SQLITE_OK else { throw Failure() }
        defer { sqlite3_close(db) }
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw Failure() }
    }

    private struct Failure: Error {}

    private func run(_ fixture: RunFlowFixture) async throws -> (PipelineRun.Outcome, RunReport?) {
        try await fixture.run()
    }

    @Test(
        "night 1 runs; the same rows again run nothing and keep no run; a new row is a new run, which reads it; the next night the same"
    )
    func nights() async throws {
        let fixture = try RunFlowFixture(pipeline: Self.pipeline)
        defer { fixture.remove() }
        try database(fixture, "CREATE TABLE users (user_id TEXT); INSERT INTO users VALUES ('u1'), ('u2');")
        let (first, night1) = try await run(fixture)
        #expect(first == .finished(exitCode: 0))
        let firstId = try #require(night1?.runId)
        #expect(
            fixture.warned.contains(
                "pushline: pipeline 'nightly' (\(fixture.pipelinePath)): new run \(firstId), journal \(fixture.storePath)"
            ))

        let (again, _) = try await run(fixture)
        guard case .alreadyCompleted(let unchanged) = again else {
            Issue.record("the same rows ran again: \(again)")
            return
        }
        #expect(unchanged.runId == firstId)
        #expect(
            unchanged.unchanged?.contains("the sources gave the rows run \(firstId) sent ('query': 2 rows)") == true)
        #expect(unchanged.steps.map(\.status) == [.succeeded, .skipped], "the source was read; nothing else ran")
        #expect(fixture.printed.contains("run \(firstId) of \(fixture.pipelinePath) already completed at"))
        let store = try Journal(path: fixture.storePath)
        #expect(try await store.runs(limit: 10).map(\.id) == [firstId], "the run that found nothing to do is not kept")

        try database(fixture, "INSERT INTO users VALUES ('u3');")
        let (fixed, rerun) = try await run(fixture)
        #expect(fixed == .finished(exitCode: 0))
        let secondId = try #require(rerun?.runId)
        #expect(secondId != firstId && rerun?.resumed == false)
        #expect(rerun?.steps.first?.summary.hasPrefix("read 3 rows") == true, "the new run read the table afresh")
        #expect(try await store.run(matching: secondId)?.generation == 1, "a spool of its own")

        fixture.advance(3_600)
        let (later, same) = try await run(fixture)
        guard case .alreadyCompleted(let report) = later else {
            Issue.record("the same rows ran again within the window: \(later)")
            return
        }
        #expect(report.runId == secondId && same == nil)
        try database(fixture, "DELETE FROM users WHERE user_id = 'u1';")
        let (changed, third) = try await run(fixture)
        #expect(changed == .finished(exitCode: 0))
        #expect(third?.steps.first?.summary.hasPrefix("read 2 rows") == true)
        #expect(try await store.runs(limit: 10).count == 3)

        // Past the completed run's dedupe window its keys hold nothing back: the same rows are a run again, as they
        // would be sent again (a weekly digest to an unchanged segment goes out every week).
        fixture.advance(Double(BatchOptions.defaultDedupeWindow) + 1)
        let (nextWeek, fourth) = try await run(fixture)
        #expect(nextWeek == .finished(exitCode: 0) && fourth?.runId != third?.runId)
        #expect(try await store.runs(limit: 10).count == 4)
    }

    @Test(
        "a run that failed mid-way resumes on the next start within its window; one cut off longer ago is closed as expired, and a new run reads afresh"
    )
    func cutOffRuns() async throws {
        let fixture = try RunFlowFixture(pipeline: Self.pipeline)
        defer { fixture.remove() }
        // No table yet: the query fails when it runs, and the run with it.
        try database(fixture, "CREATE TABLE other (x TEXT);")
        let (failed, first) = try await run(fixture)
        #expect(failed == .finished(exitCode: 1))
        let firstId = try #require(first?.runId)

        try database(fixture, "CREATE TABLE users (user_id TEXT); INSERT INTO users VALUES ('u1');")
        let (resumed, second) = try await run(fixture)
        #expect(resumed == .finished(exitCode: 0))
        #expect(second?.runId == firstId && second?.resumed == true, "the run cut off is resumed")
        #expect(fixture.warned.contains("pushline: resuming run \(firstId)"))

        // The next night the table is gone again: a new run, which fails; twelve hours later it is too late to resume it.
        fixture.advance(86_400)
        try database(fixture, "DROP TABLE users;")
        let (failedAgain, third) = try await run(fixture)
        #expect(failedAgain == .finished(exitCode: 1))
        let cutOffId = try #require(third?.runId)
        #expect(cutOffId != firstId)
        fixture.advance(Double(BatchOptions.defaultDedupeWindow) + 1)
        try database(fixture, "CREATE TABLE users (user_id TEXT); INSERT INTO users VALUES ('u1'), ('u2');")
        let (fresh, fourth) = try await run(fixture)
        #expect(fresh == .finished(exitCode: 0))
        let store = try Journal(path: fixture.storePath)
        #expect(try await store.run(matching: cutOffId)?.status == .expired)
        #expect(fourth?.runId != cutOffId && fourth?.resumed == false)
        #expect(fourth?.steps.first?.summary.hasPrefix("read 2 rows") == true)
        #expect(fixture.warned.contains("pushline: run \(cutOffId) (started "))
        #expect(fixture.warned.contains("closed as expired"))
    }
}
