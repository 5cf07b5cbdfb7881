import Engine
import Foundation
import HubClient
import HubHTTP
import HubWire
import PipelineConfig
import PipelineCore
import RunFlow
import RunStore

/// The pipeline a journalled run ran, loaded again from its file with this environment, for commands that act on the
/// run's hubs after it ended (`runs outcomes`, `devices prune`).
struct RunPipeline {
    let pipeline: Pipeline
    let registry: StepRegistry

    /// Loads `run`'s pipeline file as `pushline run` does; a file that no longer loads is a usage error that says so.
    static func load(_ run: RunRecord, parameters: [String: String], console: Console) async throws -> RunPipeline {
        guard let path = run.path else { throw CommandFailure("run \(run.id) does not say which pipeline file it ran") }
        let loaded = await LoadedPipeline.load(path, purpose: .run, console: console, parameters: parameters)
        guard let pipeline = loaded.pipeline else {
            let first =
                loaded.diagnostics.first { $0.severity == .error }.map {
                    ": " + ($0.location.map { "\($0): " } ?? "") + $0.message
                } ?? ""
            throw CommandFailure(
                "cannot load '\(path)', the pipeline run \(run.id) ran\(first) (give the environment the run had: --env-file, --param)"
            )
        }
        return RunPipeline(pipeline: pipeline, registry: loaded.registry)
    }

    /// The hub of each step that sends (`send`) or writes devices (`register`), by step number.
    func hubs(right: AccessRight) -> [Int: HubDeclaration] {
        var hubs: [Int: HubDeclaration] = [:]
        for built in pipeline.steps {
            if let hub = built.step.access.first(where: { $0.right == right })?.hub { hubs[built.index] = hub }
        }
        return hubs
    }

    /// The `register` steps that write installations (their items' targets are installation ids), and those that
    /// write registrations (targets are registration ids or handles, which no installation read may take).
    var registerSteps: (installations: Set<Int>, registrations: Set<Int>) {
        var installations: Set<Int> = []
        var registrations: Set<Int> = []
        for step in pipeline.steps {
            switch step.writtenDevices {
            case .installations?: installations.insert(step.index)
            case .registrations?: registrations.insert(step.index)
            case nil: break
            }
        }
        return (installations, registrations)
    }

    /// The step kind (`register`, `send`, …) of each step number.
    var kinds: [Int: String] {
        Dictionary(uniqueKeysWithValues: pipeline.steps.map { ($0.index, $0.id) })
    }

    /// A session for `hub` over `transport`.
    static func session(_ hub: HubDeclaration, transport: any HubTransport, console: Console) throws -> HubSession {
        do {
            return try HubSession(hub: hub, transport: transport, policy: RetryPolicy(), clock: console.clock)
        } catch {
            throw CommandFailure(error.message + (error.hint.map { " (\($0))" } ?? ""))
        }
    }

    /// The ended run `id` names in the store, its accepted items, and its pipeline loaded again: what the commands
    /// that act on a run afterwards start from (`doing` says what would wait for a running run's end).
    static func ended(
        _ id: String, store: JournalOption, parameters: [String: String], doing: String,
        console: Console
    ) async throws -> (RunRecord, [JournalItem], RunPipeline) {
        let journal = try await store.open(console: console)
        let (run, items) = try await endedRun(id, in: journal, doing: doing)
        await journal.close()
        return (run, items, try await load(run, parameters: parameters, console: console))
    }

    /// `body` with an HTTP executor of its own, shut down afterwards whatever `body` did.
    static func reading<T>(_ body: (HTTP1Client) async throws -> T) async throws -> T {
        let executor = HTTP1Client(trust: try Console.current.hubTrust())
        do {
            let value = try await body(executor)
            await executor.shutdown()
            return value
        } catch {
            await executor.shutdown()
            throw error
        }
    }

    /// The ended run `id` names in `journal` and its accepted items; a run still running is refused (`doing` says what
    /// would wait for its end).
    static func endedRun(_ id: String, in journal: any RunStore, doing: String) async throws -> (
        RunRecord, [JournalItem]
    ) {
        let run = try await endedRecord(id, in: journal, doing: doing)
        do throws(RunStoreError) {
            return (run, try await journal.items(run: run.id, states: [.accepted], limit: Int.max))
        } catch {
            throw CommandFailure("the run journal: \(error.message)")
        }
    }

    /// The ended run `id` names in `journal`; a run still running is refused.
    static func endedRecord(_ id: String, in journal: any RunStore, doing: String) async throws -> RunRecord {
        do {
            guard let run = try await journal.run(matching: id) else {
                throw CommandFailure("no run '\(id)' in \(RunStores.display(journal.location))")
            }
            if try await RunView.shownStatus(run, store: journal) == "running" {
                throw CommandFailure("run \(run.id) is running (pid \(run.pid)); \(doing) after it ends")
            }
            return run
        } catch let error as RunStoreError {
            throw CommandFailure("the run journal: \(error.message)")
        }
    }
}
