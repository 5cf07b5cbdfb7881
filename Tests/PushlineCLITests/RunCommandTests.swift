import CommandTestSupport
import Foundation
import PipelineConfig
import TestSupport
import Testing

@Suite struct RunCommandTests {
    let key = "k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY="
    var environment: [String: String] {
        [
            "NH_CONNECTION":
                "Endpoint=sb://contoso-nh.servicebus.windows.net/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=\(key)",
            "NH_HUB": "myhub",
        ]
    }

    @Test func dryRunOfTheSeedTutorial() async throws {
        let output = await CommandRunner.run(
            ["run", "pipelines/seed-tutorial.yaml", "--dry-run"], environment: environment)
        #expect(output.status == 0)
        // Its first line (standard error) says what a live run would do; the report is standard output.
        #expect(
            output.err.hasPrefix(
                "pushline: dry run of pipeline 'seed-tutorial' (pipelines/seed-tutorial.yaml): a live run would start a "
                    + "new run, reading its sources now; journal "), "\(output.err)")
        #expect(output.err.split(separator: "\n").count == 1)
        try CommandRunner.expectGolden(output.out, "run-seed-tutorial.txt")
    }

    @Test("a dry run's JSON report counts the requests it would send and no retries (it makes no attempts)")
    func dryRunReportCountsNoRetries() async throws {
        let output = await CommandRunner.run(
            ["run", "pipelines/seed-tutorial.yaml", "--dry-run", "--format", "json"], environment: environment)
        #expect(output.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [String: Any])
        let steps = try #require(report["steps"] as? [[String: Any]])
        let send = try #require(steps.last?["data"] as? [String: Any])
        let requests = send["requestCount"] as? Int
        let retries = send["retries"] as? Int
        #expect(requests == 1)
        #expect(retries == 0)  // was -1: attempts (0) minus one
    }

    @Test("a dry run whose input has a malformed row ends as the live run would: rejected, exit 2, the row named")
    func dryRunOfMalformedRowsExitsTwo() async throws {
        let rows = TestScratch.root.appendingPathComponent("rows-\(UUID().uuidString).csv").path
        try "userId,headline\nu1,Hi\nu2,\"open\nu3,Hi\n".write(toFile: rows, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: rows) }
        let output = await CommandRunner.run(
            ["run", "pipelines/daily-digest.yaml", "--dry-run"],
            environment: environment.merging(["DIGEST_ROWS": rows]) { $1 })
        #expect(output.status == 2, "\(output.out)\(output.err)")
        #expect(output.out.contains("\(rows):3: a quoted field opens on this line"), "\(output.out)")
        #expect(output.out.contains("result: rejected"), "\(output.out)")
    }

    @Test(
        "a for-each dry run shows three requests and says how to see all; --dry-run --trace prints every one, none sent, no signature"
    )
    func dryRunTracePrintsEveryRequest() async throws {
        let rows = TestScratch.root.appendingPathComponent("rows-\(UUID().uuidString).csv").path
        try (["userId,headline"] + (1...12).map { "u\($0),Hello \($0)" }).joined(separator: "\n").write(
            toFile: rows, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: rows) }
        let variables = environment.merging(["DIGEST_ROWS": rows]) { $1 }
        let plain = await CommandRunner.run(
            ["run", "pipelines/daily-digest.yaml", "--dry-run"], environment: variables)
        #expect(
            plain.status == 0
                && plain.out.contains("… and 9 more requests like these (--dry-run --trace prints every one)"),
            "\(plain.out)")
        #expect(!plain.err.contains("ServiceBusNotification-Tags"))
        let traced = await CommandRunner.run(
            ["run", "pipelines/daily-digest.yaml", "--dry-run", "--trace"], environment: variables)
        #expect(traced.status == 0)
        let tags = traced.err.split(separator: "\n").filter { $0.hasPrefix("ServiceBusNotification-Tags: ") }.map {
            String($0.dropFirst(29))
        }
        #expect(
            tags.sorted() == (1...12).map { "$UserId:{u\($0)}" }.sorted(), "every row's request, once: \(traced.err)")
        #expect(traced.err.components(separatedBy: "→ not sent (a dry run)").count - 1 == 12)
        #expect(traced.err.contains(#"{"message":"Hello 12"}"#))
        #expect(
            !traced.err.contains("→ 201")
                && traced.err.components(separatedBy: "&sig=").dropFirst().allSatisfy { $0.hasPrefix("<redacted>") })
    }

    @Test(
        "a failed step's report carries a code that names the kind of failure: a hub nobody answers for is hub.unreachable"
    )
    func aFailedStepCarriesItsCode() async throws {
        let unreachable = [
            "NH_CONNECTION":
                "Endpoint=http://127.0.0.1:1/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=\(key)",
            "NH_HUB": "myhub",
        ]
        let output = await CommandRunner.run(
            ["run", "pipelines/seed-tutorial.yaml", "--format", "json"], environment: unreachable)
        #expect(output.status == 1, "\(output.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [String: Any])
        let steps = try #require(report["steps"] as? [[String: Any]])
        let failed = steps.filter { $0["status"] as? String == "failed" }
        #expect(failed.count == 1 && failed.first?["code"] as? String == "hub.unreachable", "\(steps)")
        #expect(
            steps.allSatisfy { $0["status"] as? String == "failed" || $0["code"] == nil },
            "only a failed step has a code")
    }

    @Test func breakingNewsDryRunPrintsNoSecret() async throws {
        let output = await CommandRunner.run(["run", "pipelines/breaking-news.yaml", "--dry-run"])
        #expect(output.status == 0)
        try CommandRunner.expectGolden(output.out, "run-breaking-news.txt")
        let sampleKey =
            try String(contentsOfFile: CommandRunner.root + "/pipelines/local-emulator.connection", encoding: .utf8)
            .split(separator: "SharedAccessKey=").last.map { String($0.prefix(20)) } ?? "?"
        #expect(!output.out.contains(sampleKey))
        #expect(
            !output.out.contains("&sig=")
                || output.out.components(separatedBy: "&sig=").dropFirst().allSatisfy { $0.hasPrefix("<redacted>") })
    }

    @Test func unsetVariablesStopTheRunBeforeAnything() async {
        let output = await CommandRunner.run(["run", "pipelines/seed-tutorial.yaml"])
        #expect(output.status == 2)
        #expect(output.out == "")
        #expect(output.err.contains("error: environment variable 'NH_CONNECTION' is not set"))
        #expect(output.err.hasSuffix("pipelines/seed-tutorial.yaml: not run: 2 errors\n"))
    }

    @Test("a run that ends early still writes its metrics, and missing directories of --report and --metrics are made")
    func earlyEndsWriteMetricsIntoMadeDirectories() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-metrics-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let metrics = directory + "/textfile/pushline.prom"
        let report = directory + "/logs/2026-11-23/report.json"
        // Stale: the last run's success, which an early end must not leave in place.
        try FileManager.default.createDirectory(atPath: directory + "/textfile", withIntermediateDirectories: true)
        try "pushline_run_exit_code{pipeline=\"seed-tutorial\"} 0\n".write(
            toFile: metrics, atomically: true, encoding: .utf8)
        let output = await CommandRunner.run([
            "run", "pipelines/seed-tutorial.yaml", "--metrics", metrics, "--report", report,
        ])
        #expect(output.status == 2)
        let written = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(written.contains("pushline_run_exit_code{pipeline=\"seed-tutorial\"} 2"), "\(written)")
        #expect(
            FileManager.default.fileExists(atPath: report), "the invalid run's JSON report, in a directory made for it")
    }

    @Test func jsonReportFileAndFailingStepExitOne() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pipeline = directory.appendingPathComponent("big.yaml").path
        try """
        version: 1
        templates:
          t: { platform: apns, body: '{"aps":{"alert":"$(m)"}}' }
        steps:
          - render: { template: t, properties: { m: "\(String(repeating: "y", count: 4100))" } }
          - render: { template: t, properties: { m: ok } }
        """.write(toFile: pipeline, atomically: true, encoding: .utf8)
        let reportPath = directory.appendingPathComponent("report.json").path
        let output = await CommandRunner.run(["run", pipeline, "--report", reportPath])
        #expect(output.status == 1)
        #expect(output.out.contains("[1/2] render FAILED template 't' renders an invalid APNs payload"))
        #expect(output.out.contains("[2/2] render skip   skipped: an earlier step failed"))
        #expect(output.out.hasSuffix("result: failed (steps: 0 succeeded, 1 failed, 1 skipped)\n"))
        let report =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reportPath))) as? [String: Any]
        #expect(report?["status"] as? String == "failed")
        #expect((report?["steps"] as? [[String: Any]])?.map { $0["status"] as? String } == ["failed", "skipped"])
    }
}

/// `--env-file`: one argument switches environments; problems in the file stop everything, secret-free.
@Suite struct EnvironmentFileCommandTests {
    func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushline-\(UUID().uuidString).env")
            .path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aRunReadsItsSettingsFromTheFileOverTheInheritedEnvironment() async throws {
        let staging = try file(
            """
            NH_CONNECTION="Endpoint=sb://staging-nh.servicebus.windows.net/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=c3RhZ2luZy1rZXk="
            NH_HUB=staging-hub
            """)
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let output = await CommandRunner.run(
            ["run", "pipelines/seed-tutorial.yaml", "--dry-run", "--env-file", staging],
            environment: ["NH_HUB": "production-hub"])
        #expect(output.status == 0, "\(output.err)")
        #expect(output.out.contains("https://staging-nh.servicebus.windows.net/staging-hub/"), "\(output.out)")
        #expect(!output.out.contains("production-hub"))
        #expect(!output.out.contains("c3RhZ2luZy1rZXk="))
    }

    @Test func aBadFileStopsTheCommandWithFileLineColumnAndNoSecret() async throws {
        let broken = try file(
            "NH_CONNECTION=\"Endpoint=sb://x/;SharedAccessKeyName=Full;SharedAccessKey=dG9wLXNlY3JldA==\n")
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let output = await CommandRunner.run(["validate", "pipelines/seed-tutorial.yaml", "--env-file", broken])
        #expect(output.status == 2)
        #expect(
            output.err.contains(
                "\(broken):1:15: error: the double quote that opens the value of NH_CONNECTION is not closed on this line"
            ),
            "\(output.err)")
        #expect(!output.err.contains("dG9wLXNlY3JldA=="))
        #expect(output.out == "")
        // A run that cannot use its env file still tells monitoring.
        let metrics = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-\(UUID().uuidString)/run.prom"
        ).path
        let run = await CommandRunner.run([
            "run", "pipelines/seed-tutorial.yaml", "--env-file", broken, "--metrics", metrics,
        ])
        #expect(run.status == 2)
        #expect(
            (try? String(contentsOfFile: metrics, encoding: .utf8))?.contains(
                "pushline_run_exit_code{pipeline=\"seed-tutorial\"} 2") == true)
        let missing = await CommandRunner.run(["runs", "list", "--env-file", "/no/such.env"])
        #expect(missing.status == 2)
        #expect(missing.err.contains("--env-file '/no/such.env' does not exist"))
    }

    @Test func aHugeFileOrValueIsRefusedBeforeAnythingRunsAndAKeyThatCannotBeAnNHKeyNeverReachesAHub() async throws {
        // Over the file limit: refused from the first megabyte read, exit 2, nothing of it printed.
        let huge = try file("NH_HUB=h\nBIG=" + String(repeating: "x", count: EnvironmentFile.maxFileBytes) + "\n")
        defer { try? FileManager.default.removeItem(atPath: huge) }
        let refused = await CommandRunner.run(["run", "pipelines/seed-tutorial.yaml", "--dry-run", "--env-file", huge])
        #expect(refused.status == 2)
        #expect(
            refused.err.contains("--env-file '\(huge)' is 1048590 bytes; the limit is 1048576 bytes"), "\(refused.err)")
        #expect(!refused.err.contains("xxxx"))
        // A key of 1 MB cannot be an NH key: the pipeline is refused at the connection, before any request.
        let key = String(repeating: "A", count: 60_000)
        let longKey = try file(
            "NH_CONNECTION=Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=Full;SharedAccessKey=\(key)\nNH_HUB=h\n"
        )
        defer { try? FileManager.default.removeItem(atPath: longKey) }
        let run = await CommandRunner.run(["run", "pipelines/seed-tutorial.yaml", "--env-file", longKey])
        #expect(run.status == 2)
        #expect(
            run.err.contains(
                "SharedAccessKey is 60000 bytes long; an NH key is 44 characters (256 bits in base64), so it cannot be the hub's key."
            ),
            "\(run.err)")
        #expect(!run.err.contains("AAAAAAAA") && !run.out.contains("AAAAAAAA"))
        #expect(!run.out.contains("PUT ") && !run.out.contains("POST "))
    }
}
