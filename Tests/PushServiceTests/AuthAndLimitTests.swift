import Foundation
import HTTPTypes
import HubEmulator
import PipelineCore
import PushService
import Testing

@Suite("Sign-in, scopes and limits")
struct AuthAndLimitTests {
    @Test func missingOrWrongCredentialsAre401WithAChallenge() async throws {
        try await ServiceHarness.with { harness in
            for answer in [
                await harness.call(.post, "/api/register"),
                await harness.call(.post, "/api/register", as: "alice", password: "wrong"),
                await harness.call(.post, "/api/register", as: "mallory", password: "mallory"),
                await harness.call(.post, "/api/register", apiKey: "not-a-key-at-all-0000"),
                await harness.call(.post, "/api/register", headers: [.authorization: "Basic !!!"]),
                await harness.call(.post, "/api/register", headers: [.authorization: "Bearer abc.def.ghi"]),
            ] {
                #expect(answer.status == 401, "\(answer)")
                #expect(answer.headers[.wwwAuthenticate] == #"Basic realm="pushline", charset="UTF-8""#)
                #expect(answer.headers[.contentType] == "application/problem+json")
            }
        }
    }

    @Test func anAPIKeyInTheURLIsRefusedEvenWhenRight() async throws {
        try await ServiceHarness.with { harness in
            let answer = await harness.call(
                .post, "/api/notifications?pns=apns&to_tag=bob&apikey=\(ServiceHarness.apiKey)",
                body: #""hi""#)
            #expect(answer.status == 401)
            #expect(answer.detail.contains("header only"))
            #expect(!answer.text.contains(ServiceHarness.apiKey))
        }
    }

    @Test func scopesDecideWhatACallerMayDo() async throws {
        try await ServiceHarness.with { harness in
            try await harness.register("bob", handle: apnsToken(20))
            // The sender key may notify, but owns no devices.
            let sent = await harness.call(
                .post, "/api/notifications?pns=apns&to_tag=bob", apiKey: ServiceHarness.apiKey,
                body: #""from the backend""#)
            #expect(sent.status == 200, "\(sent)")
            let register = await harness.call(.post, "/api/register", apiKey: ServiceHarness.apiKey)
            #expect(register.status == 403)
            #expect(register.detail.contains("`register` scope"))
            // The admin key may not send.
            let admin = await harness.call(
                .post, "/api/notifications?pns=apns&to_tag=bob", apiKey: ServiceHarness.adminKey, body: #""x""#)
            #expect(admin.status == 403)
            #expect(await harness.deliveries().count == 1)
            #expect(await harness.deliveries().first?.payload.contains("From backend: from the backend") == true)
        }
    }

    @Test func failedSignInsFromOneAddressAreThrottled() async throws {
        try await ServiceHarness.with(clock: .fixed(Date()), { $0.failedSignInsPerMinute = 3 }) { harness in
            for _ in 0..<3 {
                #expect(
                    await harness.call(.post, "/api/register", as: "alice", password: "guess", peer: "10.0.0.7").status
                        == 401)
            }
            // Past the limit, even the right password waits: nothing is checked until the window refills.
            let blocked = await harness.call(.post, "/api/register", as: "alice", peer: "10.0.0.7")
            #expect(blocked.status == 429)
            #expect(Int(blocked.headers[.retryAfter] ?? "") ?? 0 >= 1)
            // Another address is not affected.
            #expect(await harness.call(.post, "/api/register", as: "alice", peer: "10.0.0.8").status == 200)
        }
    }

    @Test func requestsPerIdentityAndPerAddressAreLimited() async throws {
        try await ServiceHarness.with(
            clock: .fixed(Date()),
            {
                $0.perIdentityPerMinute = 2
                $0.perAddressPerMinute = 5
            }
        ) { harness in
            #expect(await harness.call(.post, "/api/register", as: "alice").status == 200)
            #expect(await harness.call(.post, "/api/register", as: "alice").status == 200)
            let third = await harness.call(.post, "/api/register", as: "alice")
            #expect(third.status == 429)
            #expect(third.detail.contains("alice"))
            #expect(third.headers[.retryAfter] != nil)
            #expect(await harness.call(.post, "/api/register", as: "bob").status == 200)
            #expect(await harness.call(.post, "/api/register", as: "bob").status == 200)
            // Five from this address already: carol is refused by the address limit.
            let address = await harness.call(.post, "/api/register", as: "carol")
            #expect(address.status == 429)
            #expect(address.detail.contains("address"))
        }
    }

    @Test func aBodyOverTheLimitIs413() async throws {
        try await ServiceHarness.with { harness in
            let big = "\"" + String(repeating: "x", count: 2 << 20) + "\""
            let answer = await harness.call(.post, "/api/notifications?pns=apns&to_tag=bob", as: "alice", body: big)
            #expect(answer.status == 413)
            #expect(answer.detail.contains("16384 bytes"))
            #expect(await harness.deliveries().isEmpty)
        }
    }

    @Test func healthAndReadinessNeedNoSignIn() async throws {
        try await ServiceHarness.with { harness in
            #expect(await harness.call(.get, "/healthz").status == 200)
            let ready = await harness.call(.get, "/readyz")
            #expect(ready.status == 200, "\(ready)")
            #expect(await harness.call(.post, "/healthz").status == 405)
            #expect(await harness.call(.get, "/nothing").status == 404)
        }
    }

    @Test func readinessFailsWhenTheHubRefusesTheKeyAndNoAnswerShowsASecret() async throws {
        let wrongKey = "WrOnGkEyWrOnGkEyWrOnGkEyWrOnGkEyWrOnGkEy00="
        try await ServiceHarness.with({ settings in
            settings =
                (try? ServiceHarness.settings(
                    port: Int(settings.hub.endpoint?.split(separator: ":").last?.dropLast() ?? "") ?? 0,
                    key: wrongKey)) ?? settings
        }) { harness in
            let ready = await harness.call(.get, "/readyz")
            #expect(ready.status == 503, "\(ready)")
            #expect(ready.detail.contains("not ready"))
            // The answer says only "not ready"; the log says why.
            let reason = harness.lines.lines.first { $0.contains(#""event":"not-ready""#) }
            #expect(reason?.contains("credentials") == true, "\(harness.lines.lines)")
            let register = await harness.call(.post, "/api/register", as: "alice")
            #expect(register.status == 502)
            #expect(register.detail.contains("credentials"))
            for text in [ready.text, register.text] + harness.lines.lines {
                #expect(!text.contains(wrongKey))
                #expect(!text.contains("sig="))
                #expect(!text.contains(ServiceHarness.passwords["alice"]!))
            }
        }
    }

    @Test func accessLogLinesNameTheRouteNotTheHandleOrCredentials() async throws {
        try await ServiceHarness.with { harness in
            try await harness.register("alice", handle: apnsToken(30))
            let lines = harness.lines.lines
            #expect(lines.count == 2)
            for line in lines {
                #expect(!line.contains(apnsToken(30)))
                #expect(!line.contains("alice-pass"))
                #expect(line.contains(#""caller":"user:alice""#))
            }
            #expect(lines.first?.contains(#""route":"POST /api/register""#) == true)
            #expect(lines.last?.contains(#""route":"PUT /api/register/{id}""#) == true)
        }
    }

    @Test func metricsNeedTheAdminScopeAndCountRequestsByRoute() async throws {
        try await ServiceHarness.with { harness in
            #expect(await harness.call(.post, "/api/register", as: "alice").status == 200)
            #expect(await harness.call(.get, "/metrics").status == 401)
            #expect(await harness.call(.get, "/metrics", as: "alice").status == 403)
            let metrics = await harness.call(
                .get, "/metrics", headers: [.authorization: "ApiKey \(ServiceHarness.adminKey)"])
            #expect(metrics.status == 200)
            #expect(metrics.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            #expect(metrics.text.contains(#"pushline_http_requests_total{route="POST /api/register",status="200"} 1"#))
            #expect(metrics.text.contains(#"pushline_http_requests_total{route="GET /metrics",status="403"} 1"#))
            #expect(metrics.text.contains(#"pushline_hub_requests_total{outcome="2xx"} 1"#))
            #expect(!metrics.text.contains(ServiceHarness.adminKey))
        }
    }
}
