import Foundation
import HubWire
import PipelineCore
import TestSupport
import Testing

@testable import SendStep

/// A temporary file holding `text`.
private func file(_ text: String) throws -> String {
    try temporaryFile(text, prefix: "handles", ext: "txt")
}

/// Every diagnostic as `file:line:column severity: message`.
private func diagnose(_ pairs: [(String, Any)]) -> (SendStep?, [String]) {
    let (step, found) = diagnostics(pairs)
    return (step, found.map { "\($0.location.map(\.description) ?? "-") \($0.severity.rawValue): \($0.message)" })
}

private func token(_ n: Int) -> String { String(format: "%064X", n) }

@Suite struct DirectFileTests {
    @Test func handlesStreamInBatchesOfAThousandSkippingBlanksAndComments() async throws {
        let lines = ["# exported 2026-11-22", ""] + (0..<2500).map { "  \(token($0))  " }
        let path = try file(lines.joined(separator: "\n") + "\n")
        let (built, problems) = diagnose([
            ("hub", "sports"), ("format", "apple"), ("template", "alert"), ("direct-file", path),
            ("properties", [("message", "x")]),
        ])
        #expect(problems.isEmpty)
        let step = try #require(built)
        let transport = ScriptedTransport()
        let result = try await run(step, transport: transport)
        #expect(
            transport.requests.map(\.url)
                == Array(repeating: "http://127.0.0.1:8080/myhub/messages/$batch?api-version=2020-06&direct", count: 3))
        let bodies = transport.requests.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(bodies[0].contains(token(0)) && bodies[0].contains(token(999)) && !bodies[0].contains(token(1000)))
        #expect(bodies[2].contains(token(2499)) && !bodies[2].contains(token(1999)))
        #expect(
            result.summary
                == "sent an apple notification to the devices in '\(path)' on hub 'sports': notification n1, n2, n3")
    }

    @Test func aSingleHandleIsADirectSendNotABatch() async throws {
        let path = try file(token(7))
        let step = try #require(
            diagnose([
                ("hub", "sports"), ("format", "apple"), ("template", "alert"), ("direct-file", path),
                ("properties", [("message", "x")]),
            ]).0)
        let transport = ScriptedTransport()
        _ = try await run(step, transport: transport)
        #expect(transport.requests.map(\.url) == ["http://127.0.0.1:8080/myhub/messages?api-version=2020-06&direct"])
        #expect(transport.requests.first?.header("ServiceBusNotification-DeviceHandle") == token(7))
    }

    @Test func badLinesAreBuildErrorsAtTheirLineAndNothingIsBuilt() throws {
        let path = try file([token(1), "not hex!", token(2), "ABC"].joined(separator: "\n"))
        let (step, problems) = diagnose([
            ("hub", "sports"), ("format", "apple"), ("template", "alert"), ("direct-file", path),
            ("properties", [("message", "x")]),
        ])
        #expect(step == nil)
        #expect(
            problems == [
                "\(path):2:1 error: handle 'not hex!' is not an APNs device token: 'n' is not a hex digit",
                "\(path):4:1 error: handle 'ABC' is not an APNs device token: it has an odd number of hex digits (3)",
            ])
    }

    @Test func manyBadLinesAreListedUpToTwentyThenCounted() throws {
        let path = try file((0..<25).map { "bad token \($0)" }.joined(separator: "\n"))
        let (step, problems) = diagnose([
            ("hub", "sports"), ("format", "fcmv1"), ("template", "alert"), ("direct-file", path),
        ])
        #expect(step == nil)
        #expect(problems.filter { $0.hasPrefix(path) }.count == 20)
        #expect(problems.contains("p.yaml:2:10 error: handle file '\(path)' has 5 more bad lines not listed"))
    }

    @Test func missingEmptyAndTemplateFormatFilesAreRefused() throws {
        let apple: [(String, Any)] = [
            ("hub", "sports"), ("format", "apple"), ("template", "alert"), ("properties", [("message", "x")]),
        ]
        #expect(
            diagnose(apple + [("direct-file", "/no/such/handles.txt")]).1 == [
                "p.yaml:2:10 error: handle file '/no/such/handles.txt' does not exist"
            ])
        let empty = try file("# nothing yet\n\n")
        #expect(
            diagnose(apple + [("direct-file", empty)]).1 == [
                "p.yaml:2:10 error: handle file '\(empty)' holds no handles"
            ])
        #expect(
            diagnose([("hub", "sports"), ("direct-file", empty)]).1
                == [
                    "p.yaml:2:10 error: direct sends need a native format; NH renders templates only for registered devices"
                ])
        #expect(
            diagnose(apple + [("direct-file", empty), ("audience", "fans")]).1
                == ["p.yaml:2:10 error: give only one of 'audience', 'broadcast: true', 'direct' and 'direct-file'"])
    }

    @Test func aTemplatePropertyNotGivenIsRefusedAsRenderRefusesItAndCaseTwinsAreRefused() {
        let apple: [(String, Any)] = [
            ("hub", "sports"), ("format", "apple"), ("template", "alert"), ("direct", [token(1)]),
        ]
        let (step, problems) = diagnose(apple)
        #expect(step == nil, "a payload with the property empty is never what was meant")
        #expect(
            problems == [
                "p.yaml:2:10 error: template 'alert' uses property 'message', which is not given; the payload would carry it empty"
            ])
        // A property given that the template does not use is warned of at its key, with the name it is nearest to.
        let (typo, warned) = diagnose(apple + [("properties", [("mesage", "hi"), ("message", "hi")])])
        #expect(typo != nil)
        #expect(
            warned.count == 1
                && warned[0].contains(
                    "warning: property 'mesage' is used by template 'alert' nowhere; did you mean 'message'?"),
            "\(warned)")
        let (twins, found) = diagnose(apple + [("properties", [("message", "a"), ("Message", "b")])])
        #expect(twins == nil)
        #expect(found == ["p.yaml:2:10 error: properties 'Message', 'message' differ only in letter case"])
    }

    @Test func inlineHandlesAreCheckedToo() {
        let (step, problems) = diagnose([
            ("hub", "sports"), ("format", "apple"), ("template", "alert"), ("direct", [token(1), "xyz"]),
            ("properties", [("message", "x")]),
        ])
        #expect(step == nil)
        #expect(problems == ["p.yaml:2:10 error: handle 'xyz' is not an APNs device token: 'x' is not a hex digit"])
    }

    @Test func aFileChangedAfterTheCheckStopsAtTheBadLineAfterSendingTheBatchesBefore() async throws {
        let path = try file((0..<1500).map(token).joined(separator: "\n"))
        let step = try #require(
            diagnose([
                ("hub", "sports"), ("format", "apple"), ("template", "alert"), ("direct-file", path),
                ("properties", [("message", "x")]),
            ]).0)
        try ((0..<1200).map(token) + ["oops"]).joined(separator: "\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        let transport = ScriptedTransport()
        await #expect(throws: StepFailure.self) { _ = try await run(step, transport: transport) }
        do { _ = try await run(step, transport: ScriptedTransport()) } catch let failure as StepFailure {
            #expect(
                failure.message
                    == "handle file '\(path)' changed after it was checked: line 1201: handle 'oops' is not an APNs device token: 'o' is not a hex digit"
            )
        }
        #expect(transport.requests.count == 1)
    }
}

@Suite struct RetryOptionTests {
    @Test func retryOptionsBecomeThePolicy() throws {
        let step = try #require(
            diagnose([
                ("hub", "sports"), ("broadcast", "true"), ("retries", "5"), ("retry-delay", "2s"),
                ("retry-max-delay", "2m"), ("retry-ambiguous", "true"),
            ]).0)
        #expect(step.policy == RetryPolicy(maxRetries: 5, baseDelay: 2, maxDelay: 120, retryAmbiguous: true))
        #expect(try #require(diagnose([("hub", "sports"), ("broadcast", "true")]).0).policy == RetryPolicy())
    }

    @Test func retryOptionsAreChecked() {
        #expect(
            diagnose([("hub", "sports"), ("broadcast", "true"), ("retries", "11")]).1
                == ["p.yaml:2:10 error: 'retries' must be a whole number from 0 to 10, found '11'"])
        #expect(
            diagnose([("hub", "sports"), ("broadcast", "true"), ("retry-delay", "2m")]).1
                == ["p.yaml:2:10 error: 'retry-delay' must be between 1s and 1m, found '2m'"])
        #expect(
            diagnose([("hub", "sports"), ("broadcast", "true"), ("retry-delay", "30s"), ("retry-max-delay", "10s")]).1
                == ["p.yaml:2:10 error: 'retry-max-delay' (10s) is shorter than 'retry-delay' (30s)"])
    }
}
