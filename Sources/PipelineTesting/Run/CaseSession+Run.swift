import Engine
import Foundation
import HubEmulator
import HubWire
import PipelineConfig
import PipelineCore
import RunFlow
import Synchronization

/// What one run of a case came to: what the checks look at.
struct RunOutcome: Sendable {
    /// What loading the pipeline reported (warnings too).
    var diagnostics: [Diagnostic] = []
    /// The pipeline did not load: nothing ran.
    var refused = false
    /// The run's report, when it ran or found its work done.
    var report: RunReport?
    /// The exit code `pushline run` would end with.
    var exitCode: Int32 = 0
    /// The run's status, `already-completed`, or `not started`.
    var status = "not started"
    /// Why the run did not start (the journal, a lock).
    var message: String?
    /// What the devices received during the run.
    var deliveries: [Delivery] = []
    /// The hub deliveries were looked up in.
    var hub: String?
    /// The requests of the run that reached the hub.
    var exchanges: [ExchangeLog.Exchange] = []
    /// What the pipeline is made of, when it could be read.
    var shape: PipelineShape?
}

extension CaseSession {
    /// Runs the pipeline once as `run` describes, against the case's emulator and journal, cut off at `crash` when
    /// given; problems of the test's own making (rows for a step that does not exist) are added to `failures`.
    func perform(_ run: TestRun, failures: inout [TestFailure], crash: CrashPoint? = nil) async -> RunOutcome {
        if let now = run.now { clock.set(now) }
        var environment = baseEnvironment
        environment["NH_CONNECTION"] = connectionString
        environment["NH_HUB"] = "myhub"
        environment.merge(run.environment) { $1 }
        var console = Console(
            out: { [self] in print($0) }, err: { [self] in print($0) }, environment: environment,
            clock: clock.wallClock)
        console.steps = steps
        let adjusted = Mutex<(hubs: [String], problems: [TestFailure])>(([], []))
        var overrides = run.rows.map { override in
            let path =
                switch override.source {
                case .inline(let rows): rowsFile(rows, step: override.step)
                case .file(let path): path
                }
            return OptionOverride(
                step: override.step, location: override.location, key: "for-each", path: path, what: "rows")
        }
        for database in run.databases {
            do {
                let path =
                    switch database.source {
                    case .tables(let tables): try databaseFile(tables, step: database.step)
                    case .file(let path): path
                    }
                overrides.append(
                    OptionOverride(
                        step: database.step, location: database.location, key: "database", path: path,
                        what: "a database"))
            } catch {
                failures.append(
                    TestFailure(
                        run: run.label, location: database.location,
                        message: "the tables of '\(database.step)' could not be written: \(error)"))
            }
        }
        let connection = try? ConnectionString(parsing: connectionString)
        // A test of diagnostics loads as `validate` does; a run, as `run` does.
        let purpose: LoaderOptions.Purpose = run.expect.diagnostics == nil ? .run : .validate
        let loaded = await LoadedPipeline.load(
            file.pipeline, purpose: purpose, console: console, parameters: run.parameters
        ) { document in
            // Every hub the pipeline declares is the case's emulator, whatever its connection says: a test never
            // reaches a real hub.
            for index in document.hubs.indices {
                document.hubs[index].connection = connection
                document.hubs[index].endpoint = nil
            }
            let (replaced, problems) = OptionOverride.apply(overrides, to: &document, run: run.label)
            adjusted.withLock { $0 = (document.hubs.compactMap(\.hubName), problems) }
            return replaced
        }
        let (hubs, problems) = adjusted.withLock { $0 }
        failures += problems
        var outcome = RunOutcome(diagnostics: loaded.diagnostics, shape: loaded.document.map(PipelineShape.init))
        if run.expect.diagnostics != nil {
            // A test of what `validate` says loads the pipeline and runs nothing.
            outcome.refused = loaded.pipeline == nil
            outcome.status = "not run"
            return outcome
        }
        guard let built = loaded.pipeline, problems.isEmpty else {
            outcome.refused = loaded.pipeline == nil
            outcome.exitCode = 2
            outcome.status = "refused"
            return outcome
        }
        let (pipeline, mockProblems) = Self.mock(run, in: built, plugins: loaded.document?.plugins.map(\.name) ?? [])
        guard mockProblems.isEmpty else {
            failures += mockProblems
            outcome.status = "not run"
            return outcome
        }
        guard let emulator = await emulator(hosting: hubs, failures: &failures, run: run.label) else { return outcome }
        outcome.hub = hubs.first ?? "myhub"
        var live = PipelineRun(store: journal)
        live.watchSignals = false
        live.again = run.again
        live.retrySleep = { [clock] seconds in clock.advance(seconds) }
        live.stop = crash?.stop
        live.executor = EmulatorExecutor(
            emulator: InProcessEmulator(emulator, faults: run.faults, latency: run.latency, dice: dice), log: log,
            crash: crash)
        let mark = await emulator.deliveries().last?.id
        let logStart = log.count
        let engine = PipelineEngine(logger: Self.quietLogger, clock: clock.wallClock)
        let finished = Mutex<(RunReport, Int32)?>(nil)
        do {
            let result = try await live.execute(pipeline, registry: loaded.registry, engine: engine, console: console) {
                report, code in finished.withLock { $0 = (report, code) }
            }
            switch result {
            case .alreadyCompleted(let report):
                outcome.report = report
                outcome.status = "already-completed"
                outcome.exitCode = 0
            case .finished(let code):
                outcome.exitCode = code
                if let (report, _) = finished.withLock({ $0 }) {
                    outcome.report = report
                    outcome.status = report.status.rawValue
                }
            }
        } catch let error as RunFlowError {
            outcome.message = error.message
            outcome.exitCode = error.exitCode
        } catch {
            outcome.message = "\(error)"
            outcome.exitCode = 1
        }
        // Scheduled sends that fell due while the run ran are delivered before the checks, as the hub would have.
        await emulator.sendDueNotifications()
        outcome.deliveries = await emulator.deliveries(since: mark)
        outcome.exchanges = log.exchanges(from: logStart)
        if let report = outcome.report { print(Self.summary(report)) }
        return outcome
    }

    /// A report in a few lines: each step's status and summary.
    static func summary(_ report: RunReport) -> String {
        var text = "\(report.pipeline): \(report.status.rawValue)\(report.unchanged.map { " (\($0))" } ?? "")\n"
        for step in report.steps {
            text += "  [\(step.index)] \(step.id ?? step.step) \(step.status.rawValue): \(step.summary)\n"
        }
        return text
    }
}
