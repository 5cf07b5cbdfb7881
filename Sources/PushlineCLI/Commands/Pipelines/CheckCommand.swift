import ArgumentParser
import Engine
import Foundation
import HubClient
import HubHTTP
import HubWire
import PipelineConfig
import PipelineCore
import PushlineLogging
import RunFlow
import RunStore

/// `pushline check PIPELINE`: the pre-flight. Everything `validate` does, then each hub proven with
/// harmless requests, every input read whole, the plan of a live run, and whether one would start now.
struct CheckCommand: AsyncParsableCommand, JournalCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Pre-flight a pipeline: validate it, prove each hub's key and rights, count the rows, show the plan. Sends nothing.",
        discussion: """
            What `terraform plan` is to infrastructure: the pipeline is loaded and checked as `run` would (unset \
            references are errors), then for each hub a steps uses, two harmless requests about an id that \
            cannot exist prove that the hub is reachable and exists, that the key is accepted, and that it \
            holds the rights the steps need: Listen for `register`, Send for `send` (a DELETE of a scheduled \
            notification that does not exist: nothing is sent or cancelled). Where a right cannot be proven \
            without sending, it says so. Then every input file is read whole (records, malformed rows), the \
            steps are planned as a dry run would (requests of each kind, what an earlier run already sent), \
            and the run journal and lock say whether a live run would start, resume, or find the run done.

            EXAMPLES:
              pushline check pipelines/daily-digest.yaml --env-file /etc/pushline/production.env

            \(ExitStatus.help([
                .init("0", "a live run would start (or resume, or find the same run done and send nothing), and every right it "
                    + "needs is proven or cannot be proven without sending"),
                .init("1", "a hub is unreachable, missing, refuses the key or lacks a right; or a step would fail"),
                .init("2", "invalid input: the pipeline, or malformed rows under bad-rows: stop"),
                .init("75", "another run of this pipeline holds its lock now, or the run store cannot be reached"),
                .init("78", "the run store is set up wrongly (a login it rejects, a database that does not exist)"),
            ]))
            """)

    @Argument(help: "The pipeline file.")
    var pipeline: String

    @OptionGroup var store: JournalOption

    @OptionGroup var parameters: ParameterOption

    @Option(
        help: ArgumentHelp(
            "Check part I (from 0) of N, as `run --shard I/N` would run it: its rows, its lock, its run.",
            valueName: "I/N"))
    var shard: Shard?

    @Flag(help: "Print every request sent to a hub (Authorization redacted) and its answer to standard error.")
    var trace = false

    func run() async throws {
        let console = Console.current
        let loaded = await LoadedPipeline.load(
            pipeline, purpose: .run, console: console, parameters: try parameters.values())
        for diagnostic in loaded.diagnostics { console.err(DiagnosticPrinter.format(diagnostic)) }
        guard let built = loaded.pipeline else {
            console.errorLine("\(pipeline): not ready: \(DiagnosticPrinter.summary(loaded.diagnostics))")
            throw ExitStatus.exit(ExitStatus.invalidInput)
        }
        // The decision first: what a live run would do now, from the same decision and plan as `run --dry-run`.
        let engine = PipelineEngine(
            logger: PushlineLogging.logger(label: "pushline", level: "critical")!, clock: console.clock)
        let preview = await PipelineRun.preview(
            built, registry: loaded.registry, store: store.journal, shard: shard, console: console)
        let plan = await PipelineRun.plan(
            built, engine: engine, preview: preview,
            location: RunStores.location(store.journal, environment: console.environment), shard: shard, again: false,
            mode: .dryRun, progress: nil, console: console)
        console.line("\(pipeline): \(plan.verdict)")
        console.line("pipeline: \(pipeline): valid (\(DiagnosticPrinter.summary(loaded.diagnostics)))")
        var code = ExitStatus.success

        // Hubs: each once, with every right its steps need.
        var needs: [(hub: HubDeclaration, rights: [AccessRight: [String]])] = []
        for access in built.steps.flatMap(\.step.access) {
            let index =
                needs.firstIndex { $0.hub.name == access.hub.name }
                ?? {
                    needs.append((access.hub, [:]))
                    return needs.count - 1
                }()
            if needs[index].rights[access.right]?.contains(access.purpose) != true {
                needs[index].rights[access.right, default: []].append(access.purpose)
            }
        }
        if needs.isEmpty { console.line("hubs: no step talks to a hub") }
        let executor = HTTP1Client(trust: try console.hubTrust())
        var transport: any HubTransport = RetryingTransport(executor: executor)
        if trace { transport = TracingTransport(transport, sink: HubTraceOutput.sink(console)) }
        let context = StepContext(
            logger: PushlineLogging.logger(label: "pushline", level: "critical")!, clock: console.clock,
            document: built.document, state: RunState(), isDryRun: false, transport: transport)
        for (hub, rights) in needs {
            let hubSession: HubSession
            do { hubSession = try context.session(for: hub) } catch {
                console.line("hub '\(hub.name)':\n  ✗ \(error.message)")
                code = ExitStatus.failure
                continue
            }
            console.line("hub '\(hub.name)' (\(hubSession.endpoint.hub) at \(hubSession.endpoint.hubBaseURL)):")
            for finding in await HubProbe.check(hubSession, rights: rights) {
                let mark =
                    switch finding.verdict {
                    case .proven: "✓"
                    case .failed: "✗"
                    case .unproven: "?"
                    }
                console.line("  \(mark) \(finding.text)")
                if finding.verdict == .failed { code = ExitStatus.failure }
            }
        }
        await executor.shutdown()

        // Inputs and plan: the dry run made above, which read every input and counted what it would send.
        let planned = plan.report
        console.line("plan (as a dry run finds it; nothing was sent):")
        for record in planned.steps {
            console.line("  [\(record.index)/\(planned.steps.count)] \(record.title): \(record.summary)")
            if let input = record.input, let line = TextReporter.reconciliation(input, record.items) {
                console.line("        \(line)")
            }
            if record.status == .failed {
                for line in record.lines.prefix(InputCheck.listed + 1) { console.line("        \(line)") }
            }
            if let hint = record.hint, record.status == .failed { console.line("        hint: \(hint)") }
        }
        switch planned.status {
        case .rejected: code = ExitStatus.invalidInput
        case .failed where code == ExitStatus.success: code = ExitStatus.failure
        default: break
        }

        // Would a live run start now, and in which journal?
        if let warning = RunStores.unpinnedWarning(store.journal, environment: console.environment) {
            console.line("warning: \(warning)")
        }
        var (stateCode, done) = state(of: built, preview: preview, console: console)
        if case .newRun = preview {
            // Settled by reading the sources, as a live start does.
            console.line("run: \(plan.verdict)\(planned.unchanged == nil ? "" : " (--again starts a fresh one)")")
            done = planned.unchanged != nil
        }
        code = max(code, stateCode)
        let last =
            if code != ExitStatus.success {
                "not ready (exit \(code))"
            } else if !done {
                preview.resumes.map { "ready: a live run would resume run \($0)" } ?? "ready: a live run would start"
            } else if planned.unchanged != nil {
                "done: the same data completed; a live run would send nothing"
            } else {
                "done: the same run completed; a live run would send nothing"
            }
        console.line(last)
        if code != ExitStatus.success { throw ExitStatus.exit(code) }
    }

    /// What the journal and the lock say about a live run of `built` now: 75 when the lock is held; `done`
    /// when the same run completed (a live run would send nothing).
    private func state(of built: Pipeline, preview: PipelineRun.Preview, console: Console) -> (code: Int32, done: Bool)
    {
        let part = shard.map { "part \($0) of " } ?? ""
        switch preview {
        case .nameTaken(let known):
            console.line(
                "run: the run journal already has a pipeline '\(built.document.name)' last started from \(known.path), with other "
                    + "text, and this file has no `name:`; a live run would stop with exit 2: add `name: \(built.document.name)` if it is "
                    + "that pipeline moved, or a name of its own if it is another")
            return (ExitStatus.invalidInput, false)
        case .locked:
            console.line("run: another run of \(part)this pipeline holds its lock now; a live run would exit 75")
            return (ExitStatus.locked, false)
        case .otherSplitRunning(let other):
            let split = other.shard.map { "as part \($0)" } ?? "whole"
            console.line(
                "run: run \(other.id) of this pipeline is sending \(split) now (pid \(other.pid)); a live run "
                    + "\(shard.map { "of part \($0)" } ?? "of every row") would exit 75")
            return (ExitStatus.locked, false)
        case .splitDifferently(let newest):
            let was =
                newest.shard.map { "split in \($0.count) parts (--shard I/\($0.count))" } ?? "not split (no --shard)"
            console.line(
                "run: run \(newest.id) of this pipeline is \(was); a live run \(shard.map { "of part \($0)" } ?? "of every row") "
                    + "would stop with exit 2 (rows would move between parts): use the same split, or --again for a fresh run"
            )
            return (ExitStatus.invalidInput, false)
        case .start:
            console.line(
                "run: a live run would start a new run\(shard.map { " of part \($0)" } ?? ""), reading its sources now")
            return (ExitStatus.success, false)
        case .newRun:
            // Said by the caller, from the sources the plan read.
            return (ExitStatus.success, false)
        case .expire(let cutOff):
            console.line(
                "run: run \(cutOff.id) was cut off more than \(ConfigDuration.format(Int64(cutOff.resumeWindow))) after it started; a live run "
                    + "would close it as expired (its unknown items stay listed) and start a new run, reading its sources now"
            )
            return (ExitStatus.success, false)
        case .completed(let latest):
            console.line(
                "run: the same run (\(latest.id)) completed at \(RunID.iso(latest.endedAt ?? latest.startedAt)); "
                    + "a live run would send nothing (--again starts a fresh one)")
            return (ExitStatus.success, true)
        case .resume(let latest):
            console.line(
                "run: a live run would resume run \(latest.id) (\(latest.status == .running ? "abandoned" : latest.status.rawValue)) "
                    + "with the rows it first read")
            return (ExitStatus.success, false)
        }
    }
}
