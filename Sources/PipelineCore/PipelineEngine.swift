import Foundation
import Logging

/// Runs a built pipeline's steps in order and reports what happened.
///
/// This is the one place runtime errors are enriched: steps throw small `StepFailure`s, and the
/// engine records them against the step's id and YAML location.
public struct PipelineEngine: Sendable {
    /// The base logger; each step gets a copy with its id in the metadata.
    public var logger: Logger
    /// The time source.
    public var clock: WallClock

    /// Creates an engine.
    public init(logger: Logger, clock: WallClock = .system) {
        self.logger = logger
        self.clock = clock
    }

    /// How a run reaches hubs. There is no default: a live run must be given a real transport, so
    /// a run can never quietly "succeed" without sending.
    public enum Mode: Sendable {
        /// Sign and render, record requests, send nothing.
        case dryRun
        /// Send through this transport.
        case live(any HubTransport)
    }

    /// Runs every step; after a failure the remaining steps are recorded as skipped, and after a stop
    /// signal as interrupted.
    public func run(_ pipeline: Pipeline, mode: Mode, batch: BatchControl = BatchControl()) async -> RunReport {
        let dryRun: Bool
        let transport: any HubTransport
        switch mode {
        case .dryRun: (dryRun, transport) = (true, DryRunTransport())
        case .live(let live): (dryRun, transport) = (false, live)
        }
        let started = clock.now()
        let state = RunState()
        var records: [StepRecord] = []
        var failed = false
        var interrupted = false
        var partial = false
        for built in pipeline.steps {
            let location = built.location.description
            if failed || interrupted || batch.stop.isRequested {
                interrupted = interrupted || (!failed && batch.stop.isRequested)
                records.append(StepRecord(index: built.index, step: built.id, location: location,
                                          status: failed ? .skipped : .interrupted,
                                          summary: failed ? "skipped: an earlier step failed" : "not started: the run was stopped"))
                continue
            }
            var stepLogger = logger
            stepLogger[metadataKey: "step"] = "\(built.index):\(built.id)"
            let context = StepContext(logger: stepLogger, clock: clock, document: pipeline.document, state: state,
                                      isDryRun: dryRun, transport: transport, stepIndex: built.index, batch: batch)
            let stepStart = ContinuousClock.now
            let record: StepRecord
            do {
                let result = try await built.step.run(in: context)
                let status: StepRecord.Status = result.interrupted ? .interrupted : result.items?.isPartial == true ? .partial : .succeeded
                record = StepRecord(index: built.index, step: built.id, location: location, status: status,
                                    summary: result.summary, lines: result.lines, data: result.data,
                                    durationMs: Self.milliseconds(since: stepStart), items: result.items)
                interrupted = interrupted || result.interrupted
                partial = partial || status == .partial
            } catch let failure as StepFailure {
                record = StepRecord(index: built.index, step: built.id, location: location, status: .failed,
                                    summary: failure.message, lines: failure.lines, data: failure.data,
                                    durationMs: Self.milliseconds(since: stepStart), hint: failure.hint)
            } catch {
                record = StepRecord(index: built.index, step: built.id, location: location, status: .failed,
                                    summary: String(describing: error), durationMs: Self.milliseconds(since: stepStart))
            }
            if record.status == .failed {
                failed = true
                stepLogger.error("step failed", metadata: ["location": "\(location)", "reason": "\(record.summary)"])
            }
            records.append(record)
        }
        let status: RunReport.Status = failed ? .failed : interrupted ? .interrupted : partial ? .partial : .succeeded
        return RunReport(pipeline: pipeline.document.file, dryRun: dryRun, startedAt: started, finishedAt: clock.now(),
                         status: status, steps: records)
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}
