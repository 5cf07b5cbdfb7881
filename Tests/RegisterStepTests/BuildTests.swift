import Foundation
import PipelineCore
import TestSupport
import Testing

@testable import RegisterStep

private func located(_ diagnostics: [Diagnostic]) -> [String] {
    diagnostics.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.severity.rawValue): \($0.message)" }
}

@Suite struct BuildTests {
    @Test func defaultsAreDocumentedAndApplied() throws {
        let step = try built([
            ("hub", scalar("tutorial")),
            (
                "installations",
                list([
                    mapping([
                        ("installationId", scalar("a")), ("platform", scalar("gcm")), ("pushChannel", scalar("t")),
                    ])
                ])
            ),
        ])
        #expect(step.mode == .put)
        #expect(step.concurrency == 16)
        #expect(RegisterStep.options.first { $0.key == "mode" }?.defaultValue == "put")
        #expect(RegisterStep.options.first { $0.key == "concurrency" }?.defaultValue == "16")
        #expect(
            StepKind(RegisterStep.self).options.map(\.key) == [
                "hub", "installations", "registrations", "templates", "mode", "add-tags", "remove-tags", "concurrency",
                "rate", "for-each", "bad-rows", "idempotency-key", "shard-key", "dedupe-window", "retries",
                "retry-delay", "retry-max-delay",
            ])
        #expect(step.policy == RetryPolicy())
    }

    @Test func retryOptionsReachThePolicy() throws {
        let step = try built([
            ("hub", scalar("tutorial")), ("retries", scalar("5")), ("retry-delay", scalar("2s")),
            ("retry-max-delay", scalar("30s")),
            (
                "installations",
                list([
                    mapping([
                        ("installationId", scalar("a")), ("platform", scalar("gcm")), ("pushChannel", scalar("t")),
                    ])
                ])
            ),
        ])
        #expect(step.policy == RetryPolicy(maxRetries: 5, baseDelay: 2, maxDelay: 30))
    }

    @Test func unknownNamesGetDidYouMean() {
        let (step, diagnostics) = build([
            ("hub", scalar("tutorail", 2, 10)), ("installations", list([], 3, 20)),
            ("templates", list([scalar("alret", 4, 17), scalar("fcm-alert", 4, 24)], 4, 16)),
        ])
        #expect(step == nil)
        #expect(
            located(diagnostics) == [
                "2:10 error: unknown hub 'tutorail'; did you mean 'tutorial'?",
                "4:17 error: unknown template 'alret'; did you mean 'alert'?",
                "3:20 warning: 'installations' is an empty list; nothing will be registered",
            ])
    }

    @Test func invalidInlineDevicesAreDiagnosedAtTheirFields() {
        let (step, diagnostics) = build([
            ("hub", scalar("tutorial")), ("templates", words("alert")),
            (
                "installations",
                list([
                    mapping(
                        [
                            ("installationId", scalar("a", 3, 25)), ("platform", scalar("apns", 3, 38)),
                            ("pushChannel", scalar("12G4", 3, 57)),
                        ], 3, 9),
                    mapping(
                        [
                            ("installationId", scalar("b", 4, 25)), ("platform", scalar("fcmv1", 4, 38)),
                            ("pushChannel", scalar("tok", 4, 57)),
                            ("tags", list([scalar("ok", 4, 70), scalar("a b", 4, 74)], 4, 69)),
                            ("userId", scalar("al ice", 4, 90)),
                        ], 4, 9),
                    mapping([("platform", scalar("wns", 5, 19))], 5, 9),
                    mapping(
                        [
                            ("installationId", scalar("a", 6, 25)), ("platform", scalar("apns", 6, 38)),
                            ("pushChannel", scalar("ab", 6, 57)),
                        ], 6, 9),
                ])
            ),
        ])
        #expect(step == nil)
        #expect(
            located(diagnostics) == [
                "3:57 error: pushChannel '12G4' is not an APNs device token: 'G' is not a hex digit",
                "4:74 error: invalid tag: tag 'a b' contains a space, which is not allowed",
                "4:90 error: userId 'al ice' contains a space, which is not allowed (letters, digits and - _ @ # . : = only)",
                "4:38 error: template 'alert' is for apns, but the device's platform is fcmv1",
                "5:9 error: installationId is missing",
                "5:9 error: pushChannel is missing",
                "5:19 error: template 'alert' is for apns, but the device's platform is wns",
                "6:25 error: installation 'a' is listed twice (first at p.yaml:3:25)",
            ])
        #expect(diagnostics.allSatisfy { $0.step == "register" })
    }

    @Test func optionsThatDoNotFitTheModeAreErrors() {
        let device = list([
            mapping([("installationId", scalar("a")), ("platform", scalar("gcm")), ("pushChannel", scalar("t"))])
        ])
        let idOnly = list([mapping([("installationId", scalar("a"))])])
        #expect(
            located(build([("hub", scalar("tutorial")), ("installations", device), ("add-tags", words("x"))]).1)
                == ["1:1 error: 'add-tags' applies only with mode: patch"])
        #expect(
            located(
                build([
                    ("hub", scalar("tutorial")), ("installations", device), ("mode", scalar("delete")),
                    ("templates", words("alert")),
                ]).1) == ["1:1 error: 'templates' cannot be used with mode: delete"])
        #expect(
            located(build([("hub", scalar("tutorial")), ("installations", device), ("mode", scalar("pach", 2, 9))]).1)
                == ["2:9 error: 'mode' must be one of put, patch, delete, found 'pach'; did you mean 'patch'?"])
        #expect(
            located(
                build([("hub", scalar("tutorial")), ("installations", device), ("concurrency", scalar("0", 2, 16))]).1)
                == ["2:16 error: 'concurrency' must be a whole number from 1 to 256, found '0'"])
        #expect(
            located(build([("hub", scalar("tutorial")), ("installations", idOnly), ("mode", scalar("patch"))]).1)
                == [
                    "1:1 error: nothing to patch: give pushChannel, userId or tags, or the step's add-tags, remove-tags or templates"
                ])
    }

    @Test func exactlyOneDeviceSourceIsRequired() {
        #expect(
            located(build([("hub", scalar("tutorial"))]).1) == ["1:1 error: give 'installations' or 'registrations'"])
        #expect(
            located(
                build([
                    ("hub", scalar("tutorial")), ("installations", scalar("d.csv")), ("registrations", list([], 3, 16)),
                ]).1)
                == ["3:16 error: give either 'installations' or 'registrations', not both"])
        #expect(
            located(
                build([
                    ("hub", scalar("tutorial")), ("registrations", list([])), ("templates", words("alert")),
                    ("add-tags", words("x")),
                ]).1) == [
                    "1:1 error: 'templates' applies to installations, not registrations",
                    "1:1 error: 'add-tags' applies to installations, not registrations",
                    "1:1 warning: 'registrations' is an empty list; nothing will be registered",
                ])
    }

    @Test func deviceFilesArePrecheckedWhileBuilding() throws {
        let dir = try directory(with: [
            "bad-header.csv": "installationId,platfrom\na,apns\n",
            "no-array.json": "{\"installationId\":\"a\"}",
            "empty.csv": "\n\n",
            "fine.jsonl": "",
        ])
        func problem(_ path: String) -> [String] {
            located(build([("hub", scalar("tutorial")), ("installations", scalar(path, 2, 20))], directory: dir).1)
        }
        #expect(
            problem("bad-header.csv") == [
                "2:20 error: \(dir)/bad-header.csv:1: unknown column 'platfrom'; did you mean 'platform'? (columns are installationId, platform, pushChannel, tags, userId)"
            ])
        #expect(
            problem("no-array.json") == [
                "2:20 error: \(dir)/no-array.json:1: the file must hold a JSON array of devices, starting with '['"
            ])
        #expect(
            problem("empty.csv") == [
                "2:20 error: device file '\(dir)/empty.csv' is empty; a CSV file starts with a header row"
            ])
        #expect(problem("missing.jsonl") == ["2:20 error: device file '\(dir)/missing.jsonl' does not exist"])
        #expect(problem("devices.txt") == ["2:20 error: device file 'devices.txt' must end in .jsonl, .json or .csv"])
        #expect(problem("fine.jsonl").isEmpty)
    }

    @Test func emptyFileRegistersNothing() async throws {
        let dir = try directory(with: ["none.jsonl": ""])
        let step = try built([("hub", scalar("tutorial")), ("installations", scalar("none.jsonl"))], directory: dir)
        let result = try await step.run(in: context(ScriptedTransport(), directory: dir))
        #expect(result.summary == "registered 0 installations on hub 'tutorial' (0 ok, 0 failed)")
    }
}
