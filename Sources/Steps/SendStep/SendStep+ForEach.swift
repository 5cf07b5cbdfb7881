import BatchEngine
import Foundation
import HubClient
import HubExpressions
import HubWire
import PipelineCore
import RowReading
import RunStore

extension SendStep {
    /// A send that is not per row: its request(s) (one, or one per 1000 direct handles) go through the
    /// batch runner so they are journalled; a single request that fails fails the step. One whose fate is unknown (no
    /// answer after it was written, or in flight when an earlier attempt was cut off) leaves the step partial, as an
    /// unknown item of a batch does: it is not sent again blindly, and the run ends, so the next start is not held up
    /// by a resume that would stop at the same request.
    func sendJournalled(to target: Target, session: HubSession, context: StepContext) async throws -> StepResult {
        let body = try message.payload()
        let now = context.clock.now().timeIntervalSince1970
        let next = try message.requests(to: target, body: body, now: now, endpoint: session.endpoint)
        let single: Bool =
            switch target {
            case .audience, .broadcast: true
            case .direct(let handles): handles.count <= NHLimits.maxDirectBatchHandles
            case .directFile: false
            }
        var row = 0
        let runner = BatchRunner(
            session: session, stepIndex: context.stepIndex, stepId: context.stepName ?? Self.id, concurrency: 1,
            rate: nil,
            control: context.batch, isDryRun: context.isDryRun, total: single ? 1 : nil,
            dedupeWindow: Double(dedupeWindow), clock: context.clock)
        let declared = idempotencyKey.map {
            IdempotencyKey.scoped(
                $0.render(TemplateProperties([:])), pipeline: context.document.name, step: context.stepIndex)
        }
        let whom = describe(target)
        let outcome = try Self.stopped(
            await runner.collect { () throws(StepFailure) -> BatchItem? in
                guard let request = try next() else { return nil }
                row += 1
                // A declared key names the notification; a list of handles sent in batches is one notification
                // in several requests, so each batch's key says which.
                let key =
                    declared.map { row == 1 && single ? $0 : "\($0)#\(row)" }
                    ?? IdempotencyKey.of(request, hub: session, includingSchedule: isScheduledAt)
                return BatchItem(
                    row: row, origin: "\(request.summary) #\(row)", digest: Self.digest(request),
                    work: .request(request),
                    key: key, target: whom)
            })
        if single, let failure = outcome.failures.first, failure.state != .duplicate, failure.state != .unknown,
            outcome.counts.skipped == 0
        {
            var stepFailure = StepFailure(
                "hub '\(hub.name)': \(failure.reason)", hint: failure.hint,
                data: outcome.requestReports.first ?? .object([])
            )
            .coded(outcome.stop?.failure.code ?? .hubRefused)
            // A later step (a summary `when: always`) still reads what happened.
            stepFailure.handOn(SendOutputs(ItemCounts(failed: 1)))
            throw stepFailure
        }
        let what = "\(format == "template" ? "a template" : "an \(format)") notification \(describe(target))"
        var result = finish(outcome, what: what, context: context)
        if let at = try scheduleTime(now: now) { result.summary += Self.goesOut(at) }
        result.lines = message.warnings + result.lines
        if single, !context.isDryRun, outcome.failures.contains(where: { $0.state == .unknown }) {
            result.lines.append(
                "settle it once checked: `pushline runs resolve \(context.batch.run?.id ?? "RUN") --step \(context.stepIndex) --delivered` "
                    + "or `--resend`; `retry-ambiguous: true` resends such a request automatically")
        }
        return result
    }

    /// Reads the rows file whole before the run sends anything: every row's audience or handles and
    /// payload are built as the send would build them, and every one that cannot be is a malformed row.
    func checkRows(_ plan: RowPlan) throws(StepFailure) -> InputCheck {
        let reader: RowReader
        do { reader = try plan.source.open(digests: false) } catch {
            throw StepFailure(error.message).coded(.inputRejected)
        }
        let platform = PushPlatform.allCases.first { $0.notificationFormat == format }
        let shown = plan.source.shown
        var check = InputCheck(input: shown, policy: badRows)
        while true {
            let item: RowReader.Item?
            do throws(TextFile.Failure) { item = try reader.next() } catch {
                throw StepFailure(error.message(what: "for-each file", name: shown)).coded(.inputRejected)
            }
            switch item {
            case nil:
                return check
            case .problem(_, let line, let message):
                check.malformed("\(shown):\(line): \(message)")
            case .row(_, let line, let values, _, let through):
                switch rowParts(plan, values: values, platform: platform, withBody: false) {
                case .success: check.good(multiLine: through > line)
                case .failure(let problem):
                    check.malformed("\(RowReader.origin(shown, line: line, through: through)): \(problem.message)")
                }
            }
        }
    }

    /// One request per row; malformed rows are counted bad with their `file:line`.
    func sendEach(_ plan: RowPlan, session: HubSession, context: StepContext) async throws -> StepResult {
        let reader: RowReader
        do { reader = try plan.source.open() } catch { throw StepFailure(error.message).coded(.inputRejected) }
        let merged = message.headers
        let scheduleTime = try self.scheduleTime(now: context.clock.now().timeIntervalSince1970)
        let platform = PushPlatform.allCases.first { $0.notificationFormat == format }
        let shown = plan.source.shown
        let endpoint = session.endpoint
        let declared = idempotencyKey
        let pipelineName = context.document.name
        let stepIndex = context.stepIndex
        let scheduledAt = isScheduledAt
        let shardColumn = shardKey
        let runner = BatchRunner(
            session: session, stepIndex: context.stepIndex, stepId: context.stepName ?? Self.id,
            concurrency: plan.concurrency,
            rate: plan.rate, control: context.batch, isDryRun: context.isDryRun, total: context.inputCheck?.records,
            dedupeWindow: Double(dedupeWindow), clock: context.clock)
        var keys = IdempotencyKey.Maker(hub: session, includingSchedule: scheduledAt)
        let outcome = try Self.stopped(
            await runner.collect { () throws(StepFailure) -> BatchItem? in
                let item: RowReader.Item?
                do throws(TextFile.Failure) { item = try reader.next() } catch {
                    throw StepFailure(error.message(what: "for-each file", name: shown)).coded(.inputRejected)
                }
                switch item {
                case nil:
                    return nil
                case .problem(let number, let line, let message):
                    let origin = "\(shown):\(line)"
                    return BatchItem(row: number, origin: origin, digest: "", work: .invalid("\(origin): \(message)"))
                case .row(let number, let line, let values, let digest, let through):
                    let origin = RowReader.origin(shown, line: line, through: through)
                    switch rowParts(plan, values: values, platform: platform) {
                    case .failure(let problem):
                        return BatchItem(
                            row: number, origin: origin, digest: digest, work: .invalid("\(origin): \(problem.message)")
                        )
                    case .success(let (target, body)):
                        let request = message.rowRequest(
                            target: target, body: body, headers: merged, scheduleTime: scheduleTime, endpoint: endpoint)
                        let key =
                            declared.map {
                                IdempotencyKey.scoped($0.render(values), pipeline: pipelineName, step: stepIndex)
                            }
                            ?? keys.key(of: request)
                        var item = BatchItem(
                            row: number, origin: origin, digest: digest, work: .request(request), key: key,
                            target: target.description)
                        item.shardKey = shardColumn.flatMap { values[$0] }
                        return item
                    }
                }
            })
        let what = "\(format == "template" ? "template" : format) notifications, one per row of '\(shown)',"
        var result = finish(outcome, what: what, context: context)
        if let scheduleTime { result.summary += Self.goesOut(scheduleTime) }
        return result
    }

    /// True when the send is scheduled for a fixed time: two sends of the same content at different fixed
    /// times are different notifications. A delay (`in 2h`) moves with the clock, so it stays out of the key.
    var isScheduledAt: Bool {
        if case .at = schedule { true } else { false }
    }

    /// The row's target and payload, or why the row cannot be sent: a column it lacks, an audience or
    /// handle that is invalid once the row's values are in, a payload the template cannot render. `withBody: false`
    /// (the input check) leaves out a payload that cannot fail, the properties written as JSON, and gives an empty one.
    private func rowParts(_ plan: RowPlan, values: TemplateProperties, platform: PushPlatform?, withBody: Bool = true)
        -> Result<(NotificationTargets, [UInt8]), RowProblem>
    {
        // Looked up by their folded names (worked out once for the plan), which the lookup takes as they are.
        let missing =
            zip(plan.columns, plan.foldedColumns).filter { values[$0.1] == nil }.map(\.0)
            + (idempotencyKey?.propertyNames ?? []).filter { values[$0] == nil }
        if !missing.isEmpty { return .failure(RowProblem(values.missingColumns(missing))) }
        let target: NotificationTargets
        switch plan.target(for: values, platform: platform) {
        case .success(let found): target = found
        case .failure(let problem): return .failure(problem)
        }
        // Without a template the body is the properties themselves, written straight from the plan.
        guard template?.body != nil else { return .success((target, withBody ? plan.propertiesJSON(for: values) : [])) }
        do { return .success((target, try message.payload(properties: plan.properties(for: values)))) } catch {
            return .failure(RowProblem(error.message))
        }
    }
}
