import Foundation
import Logging
import PipelineCore
import RunStore
import Tracing

/// Runs a built pipeline's steps in order and reports what happened.
///
/// This is the one place runtime errors are enriched: steps throw small `StepFailure`s, and the
/// engine records them against the step's id and YAML location.
package struct PipelineEngine: Sendable {
    /// The base logger; each step gets a copy with its id in the metadata.
    package var logger: Logger
    /// The time source.
    package var clock: WallClock

    /// Creates an engine.
    package init(logger: Logger, clock: WallClock = .system) {
        self.logger = logger
        self.clock = clock
    }

    /// How a run reaches hubs. There is no default: a live run must be given a real transport, so
    /// a run can never quietly "succeed" without sending.
    package enum Mode: Sendable {
        /// Sign and render, record requests, send nothing.
        case dryRun
        /// A dry run that hands every request it would send to `trace` (`--dry-run --trace`), signature redacted.
        case tracedDryRun(@Sendable (HubTrace) -> Void)
        /// Send through this transport.
        case live(any HubTransport)
    }

    /// Checks every step's input, then runs every step; after a failure the remaining steps are recorded
    /// as skipped, and after a stop signal as interrupted. An input check that finds malformed records
    /// under `bad-rows: stop` (or cannot read an input) ends the run before anything is sent: the report
    /// is `rejected`.
    package func run(_ pipeline: Pipeline, mode: Mode, batch: BatchControl = BatchControl()) async -> RunReport {
        let dryRun: Bool
        let transport: any HubTransport
        switch mode {
        case .dryRun: (dryRun, transport) = (true, DryRunTransport())
        case .tracedDryRun(let trace): (dryRun, transport) = (true, TracingTransport(DryRunTransport(), sink: trace))
        case .live(let live): (dryRun, transport) = (false, live)
        }
        let started = clock.now()
        let state = RunState()
        defer { state.removeTemporaryFiles() }
        func context(for built: BuiltStep, check: InputCheck? = nil) -> StepContext {
            var stepLogger = logger
            stepLogger[metadataKey: "step"] = "\(built.index):\(built.title)"
            var context = StepContext(
                logger: stepLogger, clock: clock, document: pipeline.document, state: state,
                isDryRun: dryRun, transport: transport, stepIndex: built.index, batch: batch)
            context.inputCheck = check
            context.stepName = built.name
            context.stepId = built.declaredId
            return context
        }
        // The `for-each` files the run reads are its copies of them, kept with the run (a resume reads what it first read).
        let files = await keepForEachFiles(pipeline, batch: batch, dryRun: dryRun, state: state, started: started)
        if let failed = files.failure { return failed }
        let (checks, rejections) = await RowFiles.$copies.withValue(files.copies) {
            await checkInputs(pipeline, context: { context(for: $0) })
        }
        if !rejections.isEmpty {
            let records = pipeline.steps.map { built in
                rejections[built.index].map { Self.named($0, built) }
                    ?? Self.notRun(
                        built, status: .skipped, summary: "not started: the input check failed, so nothing was sent")
            }
            var report = RunReport(
                pipeline: pipeline.document.file, dryRun: dryRun, startedAt: started, finishedAt: clock.now(),
                status: .rejected, steps: records)
            report.name = pipeline.document.name
            return report
        }
        // Sources first: a new run reads them before anything else runs, so it can tell that its rows are the ones a
        // completed run sent (then nothing runs). A resume reads its rows back from the spool at each step's turn.
        var early: [Int: Executed] = [:]
        if !batch.isResume {
            for built in pipeline.steps where built.isReadFirst {
                early[built.index] = await execute(
                    built, in: context(for: built, check: checks[built.index]), files: files.copies)
            }
            if let decide = batch.sourcesRead,
                let reason = await decide(Self.rowDigests(early).merging(files.digests) { read, _ in read })
            {
                var report = RunReport(
                    pipeline: pipeline.document.file, dryRun: dryRun, startedAt: started, finishedAt: clock.now(),
                    status: .succeeded,
                    steps: pipeline.steps.map { built in
                        early[built.index].map { Self.named($0.record, built) }
                            ?? Self.notRun(built, status: .skipped, summary: "not run: \(reason)")
                    })
                report.unchanged = reason
                report.name = pipeline.document.name
                return report
            }
        }
        var records: [StepRecord] = []
        var earlier = EarlierOutputs()
        var failed = false
        var interrupted = false
        var partial = false
        var undelivered = false
        var rejected = false
        for built in pipeline.steps {
            let location = built.location.description
            // A stop signal ends the run whatever a step's `when:` says; a failure skips the steps that need success
            // and lets those that run on failure, or always, run. An expression reads earlier outputs, which every
            // earlier step with an id has (a skipped step's are empty: `HandedOn`).
            let runs: Bool
            do throws(StepFailure) {
                runs = try built.condition.holds(
                    ConditionSituation(
                        outputs: earlier, earlierFailed: failed, isDryRun: dryRun,
                        consumer: "step '\(built.title)'"))
            } catch {
                // After a stop signal nothing more starts, and an unreadable condition is not a failure of its own.
                let stopped = interrupted || batch.stop.isRequested
                interrupted = interrupted || (!failed && batch.stop.isRequested)
                records.append(
                    stopped
                        ? Self.notRun(built, status: .interrupted, summary: "not started: the run was stopped")
                        : Self.named(
                            StepRecord(
                                index: built.index, step: built.id, location: location, status: .failed,
                                summary: error.message, hint: error.hint), built))
                if let record = records.last { earlier.record(built, record, produced: nil) }
                if !stopped { failed = true }
                continue
            }
            // A source read before the others has run already, stopped or not: its record stands.
            if interrupted || batch.stop.isRequested, early[built.index] == nil {
                interrupted = interrupted || (!failed && batch.stop.isRequested)
                records.append(
                    runs
                        ? Self.notRun(built, status: .interrupted, summary: "not started: the run was stopped")
                        : Self.skipped(built, afterFailure: failed))
                if let record = records.last { earlier.record(built, record, produced: nil) }
                continue
            }
            guard runs else {
                let record = Self.skipped(built, afterFailure: failed)
                records.append(record)
                earlier.record(built, record, produced: nil)
                continue
            }
            if let done = await Self.completedEarlier(built, batch: batch, logger: logger) {
                var record = Self.notRun(
                    built, status: .succeeded, summary: "done by an earlier attempt of this run: \(done.summary)")
                record.outputs = Self.declared(done.outputs, of: built.outputs)
                undelivered = undelivered || done.reachedNoDevice
                earlier.record(built, record, produced: done.outputs)
                records.append(record)
                continue
            }
            var context = context(for: built, check: checks[built.index])
            context.earlierOutputs = earlier
            let stepLogger = context.logger
            let executed: Executed
            if let done = early.removeValue(forKey: built.index) {
                executed = done
            } else {
                executed = await execute(built, in: context, files: files.copies)
            }
            let (produced, reachedNoDevice) = (executed.produced, executed.reachedNoDevice)
            var record = executed.record
            interrupted = interrupted || record.status == .interrupted
            partial = partial || record.status == .partial
            undelivered = undelivered || reachedNoDevice
            rejected = rejected || executed.rejectsInput
            record.input = checks[built.index].map(InputSummary.init)
            record = Self.named(record, built)
            if record.status == .succeeded {
                await Self.recordCompleted(
                    built, record, produced ?? [:], reachedNoDevice: reachedNoDevice, batch: batch, dryRun: dryRun,
                    logger: stepLogger)
            }
            earlier.record(built, record, produced: produced, rejected: executed.rejectsInput)
            if record.status == .failed {
                failed = true
                stepLogger.error("step failed", metadata: ["location": "\(location)", "reason": "\(record.summary)"])
            }
            records.append(record)
        }
        // Refused input is the cause a person must fix, whatever the steps that run on failure did after it.
        let status: RunReport.Status =
            rejected
            ? .rejected
            : failed
                ? .failed : interrupted ? .interrupted : partial ? .partial : undelivered ? .undelivered : .succeeded
        var report = RunReport(
            pipeline: pipeline.document.file, dryRun: dryRun, startedAt: started, finishedAt: clock.now(),
            status: status, steps: records)
        report.name = pipeline.document.name
        return report
    }

    /// Runs one step in its own span (its hub requests are the span's children, through the task-local context) and records
    /// what it did or why it failed.
    private func execute(_ built: BuiltStep, in context: StepContext, files: [String: String]) async -> Executed {
        let location = built.location.description
        let stepStart = ContinuousClock.now
        return await withSpan("step \(built.index) \(built.title)") { span in
            var executed: Executed
            do {
                let result = try await RowFiles.$copies.withValue(files) { try await built.step.run(in: context) }
                let status: StepRecord.Status =
                    result.interrupted ? .interrupted : result.items?.isPartial == true ? .partial : .succeeded
                var record = StepRecord(
                    index: built.index, step: built.id, location: location, status: status,
                    summary: result.summary, lines: result.lines, data: result.data,
                    durationMs: Self.milliseconds(since: stepStart), items: result.items)
                record.outputs = Self.declared(result.outputs, of: built.outputs)
                executed = Executed(record: record, produced: result.outputs, reachedNoDevice: result.reachedNoDevice)
            } catch let failure as StepFailure {
                var record = StepRecord(
                    index: built.index, step: built.id, location: location, status: .failed,
                    summary: failure.message, lines: failure.lines, data: failure.data,
                    durationMs: Self.milliseconds(since: stepStart), hint: failure.hint, items: failure.items)
                record.code = failure.code.rawValue
                record.outputs = Self.declared(failure.outputs, of: built.outputs)
                executed = Executed(
                    record: record, produced: failure.outputs.isEmpty ? nil : failure.outputs,
                    rejectsInput: failure.rejectsInput)
            } catch {
                var record = StepRecord(
                    index: built.index, step: built.id, location: location, status: .failed,
                    summary: String(describing: error), durationMs: Self.milliseconds(since: stepStart))
                record.code = StepFailure.Code.failed.rawValue
                executed = Executed(record: record)
            }
            StepSpan.describe(executed.record, outputs: executed.produced, declared: built.outputs, on: span)
            return executed
        }
    }

    /// The digest of the rows each source that succeeded produced, by step position.
    static func rowDigests(_ sources: [Int: Executed]) -> [Int: String] {
        sources.reduce(into: [:]) { digests, source in
            guard source.value.record.status == .succeeded, let outputs = source.value.produced else { return }
            for case .rows(let rows) in outputs.values {
                digests[source.key] = rows.digest
            }
        }
    }

    /// Reads every step's input before anything is sent. Returns the checks by step index, and a failed
    /// record for every step whose input stops the run (malformed records under `bad-rows: stop`, or a
    /// file that cannot be read).
    private func checkInputs(_ pipeline: Pipeline, context: (BuiltStep) -> StepContext) async
        -> (checks: [Int: InputCheck], rejections: [Int: StepRecord])
    {
        var checks: [Int: InputCheck] = [:]
        var rejections: [Int: StepRecord] = [:]
        for built in pipeline.steps {
            let location = built.location.description
            let stepContext = context(built)
            do {
                guard let check = try await built.step.checkInput(in: stepContext) else { continue }
                checks[built.index] = check
                stepContext.logger.info(
                    "input checked",
                    metadata: [
                        "input": "\(check.input)", "records": .stringConvertible(check.records),
                        "bad": .stringConvertible(check.bad),
                        "policy": "\(check.policy.rawValue)",
                    ])
                guard check.stopsRun else { continue }
                var record = StepRecord(
                    index: built.index, step: built.id, location: location, status: .failed,
                    summary:
                        "\(ItemCounts.grouped(check.bad)) of \(ItemCounts.grouped(check.records)) records in '\(check.input)' "
                        + "\(check.bad == 1 ? "is" : "are") malformed; nothing was sent",
                    lines: check.lines,
                    hint:
                        "fix \(check.bad == 1 ? "it" : "them") and run the same command again (what an earlier run sent is not sent twice), "
                        + "or set `bad-rows: skip` on the step to send the rest and report these")
                record.input = InputSummary(check)
                rejections[built.index] = record
            } catch let failure as StepFailure {
                rejections[built.index] = StepRecord(
                    index: built.index, step: built.id, location: location, status: .failed,
                    summary: failure.message, lines: failure.lines, data: failure.data, hint: failure.hint)
            } catch {
                rejections[built.index] = StepRecord(
                    index: built.index, step: built.id, location: location, status: .failed,
                    summary: String(describing: error))
            }
        }
        return (checks, rejections)
    }
}
