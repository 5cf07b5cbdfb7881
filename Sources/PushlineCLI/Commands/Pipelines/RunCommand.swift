import ArgumentParser
import Engine
import Foundation
import HubWire
import PipelineConfig
import PipelineCore
import PushlineLogging
import RunFlow
import RunStore
import Synchronization
import Telemetry

/// `pushline run PIPELINE`: builds every step, then runs them in order and prints a report.
///
/// A live run is journalled and locked: one run of a pipeline at a time; the same run started again
/// resumes where it was cut off, or does nothing when it completed.
struct RunCommand: AsyncParsableCommand, JournalCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a pipeline: validate everything, then run the steps in order and print a report.",
        discussion: """
            Every step is decoded and checked before the first one runs; an invalid pipeline runs nothing. \
            With --dry-run everything is signed and rendered offline and nothing is sent.

            A live run records every item it sends in a journal (SQLite; --journal PATH, $PUSHLINE_JOURNAL, or \
            ${XDG_STATE_HOME:-~/.local/state}/pushline/journal.sqlite) and holds a lock on the pipeline. \
            Started again with the same pipeline, options and input files, a run that was cut off resumes: \
            accepted items are skipped, retriable failures are retried, and items whose fate is unknown are \
            reported but not resent (--resend-unknown resends them). A run that completed is not repeated \
            (--again starts a fresh one).

            Every item has an idempotency key (a digest of its request, or the step's idempotency-key). An item \
            whose key any run of the same pipeline had accepted within the step's dedupe-window (default 12h) \
            is not sent again but reported as already sent, so fixing a bad row and running again sends just \
            that row. --again sends them anyway and says how many. Every for-each input is read whole before \
            the first send; a malformed row stops the run (exit 2) unless the step says bad-rows: skip.

            With OTEL_EXPORTER_OTLP_ENDPOINT set, the run exports OpenTelemetry spans over OTLP/HTTP: the run, \
            each step, each hub request (NH's TrackingId as azure.service.request.id); see docs/tracing.md.

            EXAMPLES:
              pushline run pipelines/seed-tutorial.yaml --dry-run
              pushline run pipelines/daily-digest.yaml --report run.json --metrics /var/lib/node_exporter/pushline.prom

            \(ExitStatus.help([
                .init("0", "every step ran and every item was accepted, or the same run had completed (nothing sent)"),
                .init("1", "a step failed while running, or the hub refused the key, token or hub part-way"),
                .init("2", "invalid input: the pipeline, or malformed rows in an input file (bad-rows: stop); nothing was sent"),
                .init("3", "partial: some items failed, are bad or their fate is unknown (see the report; run again to retry)"),
                .init("4", "undelivered: every notification was accepted, but the outcomes a send read (`outcomes:`) show none reached a device"),
                .init("75", "another run of this pipeline holds its lock, or the run store cannot be reached now; nothing was sent"),
                .init("78", "the run store is set up wrongly (a login it rejects, a database that does not exist); nothing was sent"),
                .init("130", "stopped by SIGINT, 143 by SIGTERM; run the same command again to resume"),
            ]))
            """)

    @Argument(help: "The pipeline file.")
    var pipeline: String

    @OptionGroup var store: JournalOption

    @Flag(help: "Sign and render offline, print what would be sent, send nothing.")
    var dryRun = false

    @Option(help: "Also write the JSON run report to this file.")
    var report: String?

    @Option(help: "Write a Prometheus textfile (node exporter) with item counts, duration and retries.")
    var metrics: String?

    @Option(help: "Report format on standard output: text or json.")
    var format: OutputFormat = .text

    @Option(help: "Log level for standard error: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "warning"

    @OptionGroup var parameters: ParameterOption

    @Flag(
        help:
            "Start a fresh run even if the same run completed or was cut off, and send items even when a run sent the same notification within the dedupe window (the report counts them)."
    )
    var again = false

    @Option(
        help: ArgumentHelp(
            "Run only part I (from 0) of N of the rows, by a stable hash of each row (or of the step's shard-key column): N processes "
                + "with I = 0…N−1 send disjoint rows. The parts share the run; each has its own lock and resumes on its own.",
            valueName: "I/N"))
    var shard: Shard?

    @Flag(
        help:
            "On resume, resend items an earlier attempt left unknown (the hub may have accepted them: may deliver twice)."
    )
    var resendUnknown = false

    @Flag(name: [.short, .long], help: "No progress bar or progress log lines.")
    var quiet = false

    @Flag(
        help:
            "Print every request sent (Authorization redacted) and its answer to standard error; with --dry-run, every request a live run would send."
    )
    var trace = false

    func validate() throws {
        guard PushlineLogging.levelNames.contains(logLevel) else {
            throw ValidationError(
                "unknown log level '\(logLevel)'; use \(PushlineLogging.levelNames.joined(separator: ", "))")
        }
    }

    func run() async throws {
        let console = Console.current
        let outputs = RunOutputs(report: report, metrics: metrics)
        do {
            try await TelemetryExport.run(
                environment: console.environment, warn: { console.errorLine("pushline: warning: \($0)") }
            ) {
                try await execute(console: console, outputs: outputs)
            }
        } catch {
            // A run that ends before its report (invalid pipeline, lock held, journal unusable) still leaves
            // its outcome for monitoring: a metrics file keeping the last run's success would lie.
            outputs.writeEarly(
                pipeline: pipeline, dryRun: dryRun, exitCode: Self.exitCode(of: error), message: Self.message(of: error)
            )
            throw error
        }
    }

    /// An `--env-file` that cannot be used ends the run before it starts: monitoring hears of it too.
    func environmentFileFailed(exitCode code: Int32, console: Console) {
        RunOutputs(report: report, metrics: metrics).writeEarly(
            pipeline: pipeline, dryRun: dryRun, exitCode: code, message: "the --env-file could not be used")
    }

    /// What the console said of `error`, for the report of a run that did not start.
    static func message(of error: any Error) -> String {
        switch error {
        case let failure as CommandFailure: failure.message
        case let failure as RunOutputError: failure.message
        case is ExitCode: "the run ended before it started (see its standard error)"
        default: "\(error)"
        }
    }

    /// The exit code `error` ends the command with.
    static func exitCode(of error: any Error) -> Int32 {
        switch error {
        case let exit as ExitCode: exit.rawValue
        case let failure as CommandFailure: failure.exitCode
        case is ValidationError: ExitStatus.invalidInput
        default: ExitStatus.failure
        }
    }

    private func execute(console: Console, outputs: RunOutputs) async throws {
        // Files that cannot be written are found out before anything runs, not after.
        do { try outputs.prepare() } catch { throw error.commandError(console: console) }
        let loaded = await LoadedPipeline.load(
            pipeline, purpose: .run, console: console, parameters: try parameters.values())
        for diagnostic in loaded.diagnostics { console.err(DiagnosticPrinter.format(diagnostic)) }
        if let name = loaded.pipeline?.document.name { outputs.named(name) }
        guard let built = loaded.pipeline else {
            console.errorLine("\(pipeline): not run: \(DiagnosticPrinter.summary(loaded.diagnostics))")
            // Cron and CI read the JSON: an invalid pipeline is a report too.
            let invalid = JSONText.encode(InvalidRun(pipeline: pipeline, diagnostics: loaded.diagnostics))
            if format == .json { console.line(invalid) }
            do { try outputs.writeReport(text: invalid) } catch { throw error.commandError(console: console) }
            throw ExitStatus.exit(ExitStatus.invalidInput)
        }
        guard let logger = PushlineLogging.logger(label: "pushline", level: logLevel) else {
            throw ValidationError("unknown log level '\(logLevel)'")
        }
        let progress: (any ProgressSink)? =
            quiet
            ? nil
            : ProgressReporter(console: console, terminal: console.isTerminal, fallback: LoggedProgress(level: "info"))
        let engine = PipelineEngine(logger: logger, clock: console.clock)
        var run = PipelineRun(store: store.journal)
        run.trust = try console.hubTrust()
        run.dryRun = dryRun
        run.again = again
        run.shard = shard
        run.resendUnknown = resendUnknown
        run.progress = progress
        if trace {
            run.trace = HubTraceOutput.sink(console)
        }
        let outcome: PipelineRun.Outcome
        do {
            outcome = try await run.execute(built, registry: loaded.registry, engine: engine, console: console) {
                result, code in
                try finish(result, exitCode: code, console: console, outputs: outputs)
                if result.status == .interrupted {
                    // With --again the same command would start yet another run and send everything again.
                    console.errorLine(
                        again
                            ? "pushline: stopped; run the same command without --again to resume run \(result.runId ?? "")"
                            : "pushline: stopped; run the same command again to resume run \(result.runId ?? "")")
                }
            }
        } catch let error as RunFlowError {
            switch error {
            case .locked, .otherSplitRunning:
                outputs.leaveMetrics(
                    console: console,
                    because: "another run of this pipeline holds the lock and writes its own series when it ends")
                // The report is this invocation's own: it says that it waited for nothing and ran nothing.
                try? outputs.writeReport(
                    text: JSONText.encode(
                        LockedRun(pipeline: pipeline, message: error.message, exitCode: error.exitCode)))
            default:
                break
            }
            throw error.commandError(console: console)
        }
        if case .alreadyCompleted(let report) = outcome {
            // Nothing ran, and monitoring still hears of this invocation: a report and metrics that say so.
            if format == .json { console.line(JSONText.encode(report)) }
            do { try outputs.write(report, exitCode: ExitStatus.success) } catch {
                throw error.commandError(console: console)
            }
        }
        if outcome.exitCode != ExitStatus.success { throw ExitStatus.exit(outcome.exitCode) }
    }

    /// Prints the report and writes the report and metrics files.
    private func finish(_ result: RunReport, exitCode: Int32, console: Console, outputs: RunOutputs) throws {
        switch format {
        case .text: console.out(TextReporter.format(result))
        case .json: console.line(JSONText.encode(result))
        }
        do { try outputs.write(result, exitCode: exitCode) } catch { throw error.commandError(console: console) }
    }
}
