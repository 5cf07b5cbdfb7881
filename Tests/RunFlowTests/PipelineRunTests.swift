import Engine
import Foundation
import PipelineCore
import RunFlow
import RunStore
import SQLiteRunStore
import Testing

@Suite("PipelineRun: the run flow every front end drives")
struct PipelineRunTests {
    private func run(_ fixture: RunFlowFixture, dryRun: Bool = false, again: Bool = false) async throws -> (
        PipelineRun.Outcome, RunReport?
    ) {
        try await fixture.run(dryRun: dryRun, again: again)
    }

    @Test("a live run is recorded in the store and completes; the same run again sends nothing; --again starts afresh")
    func liveRunIsRecordedOnce() async throws {
        let fixture = try RunFlowFixture()
        defer { fixture.remove() }
        let (first, report) = try await run(fixture)
        #expect(first == .finished(exitCode: 0))
        let runId = try #require(report?.runId)
        #expect(report?.resumed == false)

        let store = try Journal(path: fixture.storePath)
        let record = try #require(try await store.run(matching: runId))
        #expect(record.status == .completed && record.exitCode == 0)
        #expect(record.pipeline == "flow", "filed under the pipeline's name: its file name without the extension")
        #expect(record.path == URL(fileURLWithPath: fixture.pipelinePath).standardizedFileURL.path)
        #expect(
            !store.isLocked(pipeline: RunNames.lockName(record.pipeline, shard: nil)),
            "the lock is released when the run ends")

        let (second, unreported) = try await run(fixture)
        #expect(second.isAlreadyCompleted)
        #expect(unreported == nil)
        #expect(fixture.printed.contains("run \(runId) of \(fixture.pipelinePath) already completed"))

        let (third, fresh) = try await run(fixture, again: true)
        #expect(third == .finished(exitCode: 0))
        #expect(fresh?.runId != runId)
        #expect(try await store.runs(limit: 10).count == 2)
    }

    @Test("a dry run reads no store into being: nothing is created, nothing recorded")
    func dryRunWritesNothing() async throws {
        let fixture = try RunFlowFixture()
        defer { fixture.remove() }
        let (outcome, report) = try await run(fixture, dryRun: true)
        #expect(outcome == .finished(exitCode: 0))
        #expect(report?.dryRun == true && report?.runId == nil)
        #expect(!FileManager.default.fileExists(atPath: fixture.storePath))
    }

    @Test("a held lock turns the run away before anything runs, naming its holder")
    func lockedRunDoesNotStart() async throws {
        let fixture = try RunFlowFixture()
        defer { fixture.remove() }
        let store = try Journal(path: fixture.storePath)
        let holder = LockHolder(pid: 4242, host: "batch-7", startedAt: 1_795_320_000)
        guard case .acquired(let lock) = try store.lock(pipeline: RunNames.lockName("flow", shard: nil), holder: holder)
        else {
            Issue.record("the lock was not free")
            return
        }
        let error = await #expect(throws: RunFlowError.self) { _ = try await run(fixture) }
        #expect(error == .locked(pipeline: fixture.pipelinePath, holder: holder))
        #expect(error?.exitCode == 75)
        #expect(error?.message.contains("pid 4242 on batch-7") == true)
        #expect(try await store.runs(limit: 10).isEmpty, "nothing was started")
        await lock.release()
    }

    @Test("preview says what a live run would do without doing it: start, completed, locked")
    func preview() async throws {
        let fixture = try RunFlowFixture()
        defer { fixture.remove() }
        let loaded = await fixture.load()
        let pipeline = try #require(loaded.pipeline)
        let ask = {
            await PipelineRun.preview(
                pipeline, registry: loaded.registry, store: fixture.storePath, console: fixture.console)
        }
        #expect(await ask() == .start)
        #expect(!FileManager.default.fileExists(atPath: fixture.storePath), "a preview creates no store")

        _ = try await run(fixture)
        guard case .completed(let record) = await ask() else {
            Issue.record("a completed run is not previewed as completed")
            return
        }
        #expect(record.status == .completed)

        let store = try Journal(path: fixture.storePath)
        guard
            case .acquired(let lock) = try store.lock(
                pipeline: RunNames.lockName(record.pipeline, shard: nil), holder: .current(now: 0))
        else {
            Issue.record("the lock was not free")
            return
        }
        #expect(await ask() == .locked)
        await lock.release()
    }

    @Test("a store that cannot be opened is a configuration error (exit 78, not retried), not a crash")
    func unusableStore() async throws {
        let fixture = try RunFlowFixture()
        defer { fixture.remove() }
        try FileManager.default.createDirectory(atPath: fixture.storePath, withIntermediateDirectories: true)
        let error = await #expect(throws: RunFlowError.self) { _ = try await run(fixture) }
        guard case .store(let message, let kind)? = error else {
            Issue.record("expected a store error, got \(String(describing: error))")
            return
        }
        #expect(message.contains(fixture.storePath))
        #expect(kind == .configuration)
        #expect(error?.exitCode == 78)
    }
}
