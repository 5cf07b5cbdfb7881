import Foundation
import HubClient
import HubExpressions
import HubWire
import PipelineCore
import RunStore

extension SendStep {
    /// Every send and test send needs the Send right.
    package var access: [HubAccess] {
        let purpose =
            switch action {
            case .send where test: "test send"
            case .send, .sendEach: "send"
            }
        return [HubAccess(hub: hub, right: .send, purpose: purpose)]
    }

    /// A `for-each` send keeps its `concurrency:` requests in flight; every other send one.
    package var concurrency: Int {
        if case .sendEach(let plan) = action { plan.concurrency } else { 1 }
    }

    /// A `for-each` send reads its rows file whole first: the run stops before anything is sent when a
    /// row is malformed (unless `bad-rows: skip`).
    package func checkInput(in context: StepContext) async throws -> InputCheck? {
        guard case .sendEach(let plan) = action else { return nil }
        return try checkRows(plan)
    }

    /// Sends the notification (one request, or one per batch of direct handles, or one per row) and reports the
    /// notification id(s).
    package func run(in context: StepContext) async throws -> StepResult {
        let session = try context.session(for: hub).with(policy: policy)
        // A test send is one request outside the journal: in a sharded run, part 0 makes it, so N parts do not make
        // it N times.
        if let shard = context.batch.shard, shard.index != 0 {
            switch action {
            case .send where test:
                var result = StepResult(
                    summary:
                        "the test send on hub '\(hub.name)' is left to part 0/\(shard.count); this is part \(shard)",
                    data: .object([
                        ReportField("hub", .string(hub.name)), ReportField("leftToShard", .string("0/\(shard.count)")),
                    ]))
                result.handOn(SendOutputs(ItemCounts(otherShards: 1)))
                return result
            case .send, .sendEach:
                break
            }
        }
        switch action {
        case .send(let target) where test:
            return try await send(to: target, session: session, context: context)
        case .send(let target):
            return try await sendJournalled(to: target, session: session, context: context)
        case .sendEach(let plan):
            return try await sendEach(plan, session: session, context: context)
        }
    }

    private func send(to target: Target, session: HubSession, context: StepContext) async throws -> StepResult {
        let body = try message.payload()
        let now = context.clock.now().timeIntervalSince1970
        let next = try message.requests(to: target, body: body, now: now, endpoint: session.endpoint)
        var lines: [String] = []
        var sent: [ReportValue] = []
        var ids: [String] = []
        var tracking: [String] = []
        var count = 0
        while let request = try next() {
            count += 1
            let result = try await session.perform(request)
            let id = result.response.header("Location").flatMap(NotificationLocation.notificationId(fromLocation:))
            if let id { ids.append(id) }
            if !context.isDryRun { tracking.append(result.trackingId) }
            var fields = [
                ReportField("request", .string(request.summary)), ReportField("status", .int(result.response.status)),
                ReportField("trackingId", .string(result.trackingId)), ReportField("attempts", .int(result.attempts)),
                ReportField("elapsedMs", .int(result.elapsedMs)),
                ReportField("notificationId", id.map(ReportValue.string) ?? .null),
            ]
            if test, let outcome = try? NotificationOutcome(parsing: result.response.bodyText) {
                fields.append(ReportField("outcome", Self.report(outcome)))
                lines += outcome.results.map { "\($0.platform) \($0.pnsHandle): \($0.outcome)" }
            }
            if context.isDryRun {
                lines += request.dryRunLines(redactedAuthorization: session.redactedAuthorization)
            }
            sent.append(.object(fields))
        }
        lines = message.warnings + lines
        let what = "\(format == "template" ? "a template" : "an \(format)") notification \(describe(target))"
        var summary =
            context.isDryRun
            ? "would send \(what) on hub '\(hub.name)' (\(count) request\(count == 1 ? "" : "s"), nothing sent)"
            : "sent \(what) on hub '\(hub.name)'" + (ids.isEmpty ? "" : ": notification \(ids.joined(separator: ", "))")
        if let at = try scheduleTime(now: now) { summary += Self.goesOut(at) }
        var result = StepResult(
            summary: summary, lines: lines,
            data: .object([
                ReportField("hub", .string(hub.name)), ReportField("format", .string(format)),
                ReportField("notificationIds", .array(ids.map(ReportValue.string))),
                ReportField("requests", .array(sent)),
            ]))
        result.handOn(
            SendOutputs(
                context.isDryRun ? ItemCounts(planned: count) : ItemCounts(accepted: count), ids: OutputList(ids),
                tracking: OutputList(tracking)))
        return result
    }

    /// What a scheduled send's summary adds: when it goes out.
    static func goesOut(_ time: Double) -> String {
        "; scheduled: it goes out at \(ScheduleTime.format(time)) UTC"
    }

    /// Epoch seconds to schedule for, checked against NH's 7-day window; nil to send now.
    func scheduleTime(now: Double) throws(StepFailure) -> Double? {
        let time: Double? =
            switch schedule {
            case .at(let time): time
            case .after(let seconds): now + Double(seconds)
            case nil: nil
            }
        if let time {
            guard time > now, time - now <= Double(NHLimits.maxScheduleAheadSeconds) else {
                throw StepFailure(
                    "the schedule time \(ScheduleTime.format(time)) UTC is not within the next 7 days",
                    hint: "NH schedules at most 7 days ahead; use `schedule: in 2h` for a delay"
                ).coded(.optionsInvalid)
            }
        }
        return time
    }

    func describe(_ target: Target) -> String {
        switch target {
        case .audience(let name?, _): return "to audience '\(name)'"
        case .audience(nil, let expression): return "to '\(expression.source)'"
        case .broadcast: return "to every device"
        case .direct(let handles): return handles.count == 1 ? "to one device" : "to \(handles.count) devices"
        case .directFile(let file): return "to the devices in '\(file.shown)'"
        }
    }

    private static func report(_ outcome: NotificationOutcome) -> ReportValue {
        .object([
            ReportField("success", .int(outcome.success)), ReportField("failure", .int(outcome.failure)),
            ReportField(
                "results",
                .array(
                    outcome.results.map {
                        .object([
                            ReportField("platform", .string($0.platform)), ReportField("handle", .string($0.pnsHandle)),
                            ReportField("outcome", .string($0.outcome)),
                        ])
                    })),
        ])
    }
}

extension SendStep {
}
