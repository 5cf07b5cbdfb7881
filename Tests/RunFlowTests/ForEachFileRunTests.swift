import Engine
import Foundation
import HubHTTP
import HubWire
import PipelineCore
import RunFlow
import RunStore
import SQLiteRunStore
import Synchronization
import Testing

/// A `for-each` file night after night: each new run reads it afresh, the same file again sends nothing, and a run cut
/// off resumes with the rows it first read even when the file has changed since (the run kept a copy).
@Suite("Runs over a for-each file that changes")
struct ForEachFileRunTests {
    static let pipeline =
        "version: 1\nname: nightly\n" + RunFlowFixture.declarations + """
            steps:
              - send:
                  hub: main
                  for-each: rows.csv
                  audience: "$UserId:{$(userId)}"
                  properties: { message: "$(message)" }
                  concurrency: 1

            """

    /// Accepts every send, keeping its message; asks the run to stop (as a kill cuts it off) once it took `stopAfter`.
    final class Hub: HTTPExecutor {
        let messages = Mutex<[String]>([])
        let stop: StopSignal
        let stopAfter: Int?

        init(stop: StopSignal, stopAfter: Int? = nil) {
            self.stop = stop
            self.stopAfter = stopAfter
        }

        func perform(_ request: HubRequest, extraHeaders: [HubHeader]) async -> AttemptOutcome {
            let body = String(decoding: request.body, as: UTF8.self)
            let count = messages.withLock {
                $0.append(body)
                return $0.count
            }
            if count == stopAfter { stop.request() }
            return .response(HubResponse(status: 201))
        }
    }

    private func rows(_ fixture: RunFlowFixture, _ rows: [(String, String)]) throws {
        try ("userId,message\n" + rows.map { "\($0.0),\($0.1)\n" }.joined()).write(
            toFile: fixture.directory + "/rows.csv", atomically: true, encoding: .utf8)
    }

    /// Runs the pipeline as `pushline run` does, its sends answered by `hub`.
    private func run(_ fixture: RunFlowFixture, hub: Hub) async throws -> (PipelineRun.Outcome, RunReport?) {
        let loaded = await fixture.load()
        let pipeline = try #require(loaded.pipeline, "\(loaded.diagnostics)")
        var flow = PipelineRun(store: fixture.storePath)
        flow.watchSignals = false
        flow.executor = hub
        flow.stop = hub.stop
        let seen = Mutex<RunReport?>(nil)
        let outcome = try await flow.execute(
            pipeline, registry: loaded.registry, engine: fixture.engine, console: fixture.console
        ) { report, _ in seen.withLock { $0 = report } }
        return (outcome, seen.withLock { $0 })
    }

    @Test(
        "a run cut off resumes with the rows it first read, though the file changed; the next start reads the file afresh and sends only what is new"
    )
    func cutOffThenChanged() async throws {
        let fixture = try RunFlowFixture(pipeline: Self.pipeline)
        defer { fixture.remove() }
        try rows(fixture, (1...5).map { ("u\($0)", "first \($0)") })
        let first = Hub(stop: StopSignal(), stopAfter: 2)
        let (cut, night) = try await run(fixture, hub: first)
        #expect(cut == .finished(exitCode: 143) && night?.status == .interrupted)
        #expect(first.messages.withLock { $0.count } == 2)
        let cutId = try #require(night?.runId)

        // The export is rewritten before the resume: changed rows, and new ones.
        try rows(fixture, (1...7).map { ("u\($0)", "second \($0)") })
        let resume = Hub(stop: StopSignal())
        let (resumed, report) = try await run(fixture, hub: resume)
        #expect(resumed == .finished(exitCode: 0))
        #expect(report?.runId == cutId && report?.resumed == true)
        #expect(
            resume.messages.withLock { $0 }.map { $0.contains("first") } == [true, true, true],
            "the rows the run first read: \(resume.messages.withLock { $0 })")
        #expect(fixture.warned.contains("pushline: resuming run \(cutId)"))

        // The next start reads the file as it is: every row changed, so each is a new notification.
        let next = Hub(stop: StopSignal())
        let (fresh, nextReport) = try await run(fixture, hub: next)
        #expect(fresh == .finished(exitCode: 0) && nextReport?.runId != cutId && nextReport?.resumed == false)
        #expect(next.messages.withLock { $0.count } == 7)
        // The same file again: nothing sent, and the run that found nothing to do is not kept.
        let again = Hub(stop: StopSignal())
        let (same, _) = try await run(fixture, hub: again)
        guard case .alreadyCompleted(let unchanged) = same else {
            Issue.record("the same file ran again: \(same)")
            return
        }
        #expect(again.messages.withLock { $0.isEmpty })
        #expect(
            unchanged.unchanged?.contains("'send': its for-each file unchanged") == true, "\(unchanged.unchanged ?? "")"
        )
        // A row fixed: only it is sent (the others' keys were accepted within the window).
        try rows(fixture, (1...7).map { ("u\($0)", $0 == 4 ? "fixed 4" : "second \($0)") })
        let fix = Hub(stop: StopSignal())
        let (fixed, _) = try await run(fixture, hub: fix)
        #expect(fixed == .finished(exitCode: 0))
        #expect(
            fix.messages.withLock { $0 }.count == 1 && fix.messages.withLock { $0 }.first?.contains("fixed 4") == true)
        // A run that ran to its end keeps only the digest of its copy, not the copy.
        let store = try Journal(path: fixture.storePath)
        #expect(try await store.runs(limit: 10).count == 3)
    }
}
