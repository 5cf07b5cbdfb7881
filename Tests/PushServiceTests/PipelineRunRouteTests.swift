import Foundation
import HTTPTypes
import HubEmulator
import HubWire
import RunFlow
import RunStore
import Testing

@testable import PushService

@Suite("Pipelines over HTTP: /v1/pipelines/{name}/runs and /v1/runs/{id}")
struct PipelineRunRouteTests {
    static let pipeline = (
        name: "notify",
        text: """
        version: 1
        hubs:
          h:
            connection: ${env:NH_CONNECTION}
            hub: ${env:NH_HUB}
        parameters:
          user: { pattern: "[a-z]{1,16}", required: true }
          headline: { default: "News" }
          loud: { type: boolean, default: "false" }
        templates:
          alert: { platform: apns, body: '{"aps":{"alert":"$(message)"}}' }
        steps:
          - send:
              hub: h
              format: apple
              template: alert
              audience: "username:${param:user}"
              properties: { message: "${param:headline}" }
        """
    )

    static let admin: HTTPFields = [.apiKey: ServiceHarness.adminKey]

    func start(_ harness: ServiceHarness, _ body: String, key: String? = nil) async -> Answer {
        var headers = Self.admin
        if let key { headers[.idempotencyKey] = key }
        return await harness.call(.post, "/v1/pipelines/notify/runs", headers: headers, body: body)
    }

    @Test func aRunStartsThroughTheRunFlowAndAnIdenticalOneSendsNothingTwice() async throws {
        try await ServiceHarness.with(pipelines: [Self.pipeline]) { harness in
            try await harness.register("bob", handle: apnsToken(80))
            let started = await start(harness, #"{"parameters":{"user":"bob","headline":"Hi Bob","loud":true}}"#)
            #expect(started.status == 202, "\(started)")
            let id = try #require(started.json?["id"] as? String)
            #expect(started.headers[.location] == "/v1/runs/\(id)")
            await harness.server.waitForRuns()
            let shown = await harness.call(.get, "/v1/runs/\(id)", headers: Self.admin)
            #expect(shown.status == 200)
            #expect(shown.json?["status"] as? String == "completed", "\(shown)")
            #expect(shown.json?["pipeline"] as? String == "notify")
            // The same view as `pushline runs show RUN --format json`: items per step and state.
            let items = try #require(shown.json?["items"] as? [String: [String: Int]])
            #expect(items == ["1:send": ["accepted": 1]], "\(items)")
            // Field for field what `runs show` reads from the same journal (the name is the one it is served by).
            let store = try #require(try await RunStores.openExisting(harness.journal, environment: [:]))
            var view = try await RunView.read(
                try #require(try await store.run(matching: id)), from: store, unknownLimit: 20)
            view.pipeline = "notify"
            let cli = try JSONSerialization.jsonObject(with: Data(JSONText.encode(view).utf8)) as? NSDictionary
            #expect(cli == (shown.json.map { $0 as NSDictionary }), "\(shown.text)")
            #expect(shown.json?["unknown"] as? [Any] != nil && shown.json?["groups"] as? [Any] != nil)
            // The run's report, as `pushline run --format json` prints it.
            let report = try #require(shown.json?["report"] as? [String: Any])
            #expect(report["runId"] as? String == id)
            #expect(report["status"] as? String == "succeeded")
            #expect(await harness.deliveries().map(\.payload) == [#"{"aps":{"alert":"Hi Bob"}}"#])
            // The same run again: the run store knows it completed, so nothing is sent and the first run comes back.
            let again = await start(harness, #"{"parameters":{"loud":true,"headline":"Hi Bob","user":"bob"}}"#)
            #expect(again.status == 200, "\(again)")
            #expect(again.json?["id"] as? String == id)
            await harness.server.waitForRuns()
            #expect(await harness.deliveries().count == 1)
            // Reads share one open store: a GET does not log in to the store again.
            for _ in 0..<3 { #expect(await harness.call(.get, "/v1/runs/\(id)", headers: Self.admin).status == 200) }
            #expect(await harness.server.runs.reader.opened == 1)
        }
    }

    @Test func anIdempotencyKeyReturnsTheFirstRunAndRefusesAnotherRequest() async throws {
        try await ServiceHarness.with(pipelines: [Self.pipeline]) { harness in
            let first = await start(harness, #"{"parameters":{"user":"carol"}}"#, key: "retry-1")
            #expect(first.status == 202, "\(first)")
            await harness.server.waitForRuns()
            let retried = await start(harness, #"{"parameters":{"user":"carol"}}"#, key: "retry-1")
            #expect(retried.status == 200)
            #expect(retried.json?["id"] as? String == first.json?["id"] as? String)
            let other = await start(harness, #"{"parameters":{"user":"dave"}}"#, key: "retry-1")
            #expect(other.status == 422)
            #expect(other.detail.contains("different request"))
        }
    }

    @Test(arguments: [
        (#"{"parameters":{"user":"Bob1"}}"#, "parameters.user"),
        (#"{"parameters":{"user":"bob","volume":3}}"#, "parameters.volume"),
        (#"{"parameters":{}}"#, "parameters.user"),
        (#"{"parameters":{"user":"bob","loud":"maybe"}}"#, "parameters.loud"),
        (#"{"parameters":{"user":["bob"]}}"#, "parameters.user"),
        (#"{"parameters":"user=bob"}"#, "parameters"),
        (#"{"params":{}}"#, "params"),
    ])
    func badParametersAre422NamingTheFieldWithoutTheValue(_ body: String, _ field: String) async throws {
        try await ServiceHarness.with(pipelines: [Self.pipeline]) { harness in
            let answer = await start(harness, body)
            #expect(answer.status == 422, "\(answer)")
            #expect(answer.json?["field"] as? String == field)
            #expect(!answer.detail.contains("Bob1") && !answer.detail.contains("maybe"))
            await harness.server.waitForRuns()
            #expect(await harness.deliveries().isEmpty)
        }
    }

    @Test func runsNeedTheAdminScopeAndNameRealPipelinesAndRuns() async throws {
        try await ServiceHarness.with(pipelines: [Self.pipeline]) { harness in
            let user = await harness.call(
                .post, "/v1/pipelines/notify/runs", as: "alice", body: #"{"parameters":{"user":"bob"}}"#)
            #expect(user.status == 403)
            let unknown = await harness.call(.post, "/v1/pipelines/nope/runs", headers: Self.admin, body: "{}")
            #expect(unknown.status == 404)
            #expect(await harness.call(.get, "/v1/runs/0000-nope", headers: Self.admin).status == 404)
            #expect(await harness.call(.get, "/v1/runs/..", headers: Self.admin).status == 404)
        }
    }

    @Test func aRunIsStartedOnlyByJSONAndAnOptionalParameterEmptyWouldBreakMustBeGiven() async throws {
        let regional = (
            name: "notify",
            text: Self.pipeline.text.replacingOccurrences(
                of: "  loud: { type: boolean, default: \"false\" }",
                with: "  loud: { type: boolean, default: \"false\" }\n  region: { allowed: [eu, us] }")
        )
        try await ServiceHarness.with(pipelines: [regional]) { harness in
            var form = Self.admin
            form[.contentType] = "text/plain"
            #expect(
                await harness.call(.post, "/v1/pipelines/notify/runs", headers: form, body: "user=bob").status == 415)
            // `region` has allowed values and no default: left out it would be empty, which they forbid.
            let missing = await start(harness, #"{"parameters":{"user":"bob"}}"#)
            #expect(missing.status == 422, "\(missing)")
            #expect(missing.json?["field"] as? String == "parameters.region")
            let given = await start(harness, #"{"parameters":{"user":"bob","region":"eu"}}"#)
            #expect(given.status == 202, "\(given)")
            await harness.server.waitForRuns()
        }
    }
}
