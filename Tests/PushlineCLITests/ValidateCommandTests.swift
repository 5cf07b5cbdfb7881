import CommandTestSupport
import Foundation
import Testing

@Suite struct ValidateCommandTests {
    let environment = [
        "NH_CONNECTION":
            "Endpoint=sb://contoso-nh.servicebus.windows.net/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY=",
        "NH_HUB": "myhub",
        "DIGEST_ROWS": CommandRunner.root + "/pipelines/data/digest-sample.csv",
        "PUSHLINE_USERS": CommandRunner.root + "/pipelines/data/demo-users.htpasswd",
        "PUSHLINE_API_KEY": "demo-api-key-0123456789",
        "CRM_URL": "https://crm.example.com/api", "CRM_TOKEN": "crm-token",
        "OPS_WEBHOOK": "https://chat.example.com/hook",
    ]

    @Test func bundledPipelinesAreClean() async {
        let output = await CommandRunner.run(["validate", "pipelines/"], environment: environment)
        #expect(
            output
                == CommandOutput(
                    out:
                        "pipelines/breaking-news.test.yaml: ok\npipelines/breaking-news.yaml: ok\npipelines/crm-digest.test.yaml: ok\n"
                        + "pipelines/crm-digest.yaml: ok\npipelines/daily-digest.test.yaml: ok\npipelines/daily-digest.yaml: ok\n"
                        + "pipelines/digest-from-database.test.yaml: ok\npipelines/digest-from-database.yaml: ok\n"
                        + "pipelines/notify-user.test.yaml: ok\npipelines/notify-user.yaml: ok\n"
                        + "pipelines/notify-users.service.yaml: ok\npipelines/schedule-then-cancel.test.yaml: ok\n"
                        + "pipelines/schedule-then-cancel.yaml: ok\npipelines/seed-tutorial.test.yaml: ok\n"
                        + "pipelines/seed-tutorial.yaml: ok\n",
                    err: "", status: 0))
    }

    @Test func unsetVariablesAreWarningsNotErrors() async throws {
        let output = await CommandRunner.run(["validate", "pipelines/seed-tutorial.yaml"])
        #expect(output.status == 0)
        #expect(output.out == "pipelines/seed-tutorial.yaml: 2 warnings\n")
        try CommandRunner.expectGolden(output.err, "validate-seed-unset.err.txt")
    }

    @Test func brokenPipelineGetsEveryDiagnosticInOnePass() async throws {
        let output = await CommandRunner.run(
            ["validate", "Tests/PushlineCLITests/Inputs/broken.yaml"], environment: environment)
        #expect(output.status == 2)
        #expect(output.out == "Tests/PushlineCLITests/Inputs/broken.yaml: 3 errors\n")
        try CommandRunner.expectGolden(output.err, "validate-broken.err.txt")
    }

    @Test func jsonFormatGoesToStdout() async throws {
        let output = await CommandRunner.run(
            ["validate", "--format", "json", "Tests/PushlineCLITests/Inputs/broken.yaml"], environment: environment)
        #expect(output.status == 2)
        #expect(output.err == "")
        try CommandRunner.expectGolden(output.out, "validate-broken.json")
    }

    @Test func missingPathIsAUsageError() async {
        let output = await CommandRunner.run(["validate", "no/such/dir"])
        #expect(output.status == 2)
        #expect(output.err.contains("'no/such/dir' does not exist"))
    }

    @Test func jsonFormatWritesJSONOnlyEvenForAMissingPath() async throws {
        let output = await CommandRunner.run(
            ["validate", "--format", "json", "no/such/dir", "pipelines/seed-tutorial.yaml"],
            environment: environment)
        #expect(output.status == 2)
        #expect(output.err == "")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [String: Any])
        #expect(document["errors"] as? Int == 1)
        let files = document["files"] as? [[String: Any]] ?? []
        #expect(files.map { $0["file"] as? String } == ["no/such/dir", "pipelines/seed-tutorial.yaml"])
    }
}

/// A step in a former spelling: read as it now is with a warning, and rewritten by `validate --fix`.
@Suite struct ValidateFixTests {
    @Test(
        "`validate --fix` rewrites a step in a former spelling, keeping comments and layout, and the file then validates clean"
    )
    func fixRewritesFormerSpellings() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fix-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/p.yaml"
        let original = """
            version: 1
            hubs:
              main: { connection: "${env:NH_CONNECTION}", hub: myhub }
            steps:
              - id: later
                send: { hub: main, broadcast: true, schedule: in 2h, properties: { message: "later" } }
              # cancel what was scheduled
              - send: { hub: main, cancel: "${steps.later.notification-ids[0]}" }   # by its id

            """
        try original.write(toFile: path, atomically: true, encoding: .utf8)
        let environment = [
            "NH_CONNECTION": "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=k;SharedAccessKey=v"
        ]
        let warned = await CommandRunner.run(["validate", path], environment: environment)
        #expect(warned.status == 0 && warned.out == "\(path): 1 warning\n", "\(warned)")
        #expect(
            warned.err.contains(
                "`send:` with `cancel:` is now a step of its own: `cancel: { hub: main, notification-ids: ${steps.later.notification-ids[0]} }`"
            ))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == original, "validate alone changes nothing")

        let fixed = await CommandRunner.run(["validate", "--fix", path], environment: environment)
        #expect(fixed.status == 0 && fixed.out == "\(path): ok\n", "\(fixed)")
        #expect(fixed.err.split(separator: "\n") == ["\(path): fixed 2 places"], "\(fixed.err)")
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == original.replacingOccurrences(
                    of: "- send: { hub: main, cancel:", with: "- cancel: { hub: main, notification-ids:"))
        let again = await CommandRunner.run(["validate", "--fix", path], environment: environment)
        #expect(again.err == "" && again.status == 0, "a current file is left as it is")
    }

    @Test(
        "`validate --fix` splits a send that read outcomes into the send and an `outcomes` step, with later references, or leaves it whole"
    )
    func fixSplitsSendAndOutcomes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fix-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/p.yaml"
        let head = """
            version: 1
            hubs:
              main: { connection: "${env:NH_CONNECTION}", hub: myhub }
            steps:

            """
        let original =
            head + """
                  - send:
                      hub: main
                      audience: fans
                      outcomes:
                        wait: 10m
                      properties: { message: "hi" }   # the greeting
                    when: always
                  - when: ${steps.send-1.delivered} == 0
                    send: { hub: main, audience: ops, properties: { message: "none of ${steps.send-1.accepted} reached: ${steps.send-1.outcome-state}" } }

                """
        try original.write(toFile: path, atomically: true, encoding: .utf8)
        let environment = [
            "NH_CONNECTION": "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=k;SharedAccessKey=v"
        ]
        let warned = await CommandRunner.run(["validate", path], environment: environment)
        #expect(warned.status == 0 && warned.out == "\(path): 1 warning\n", "\(warned)")
        #expect(
            warned.err.contains(
                "`send:` with `outcomes:` is now two steps: the send (`id: send-1`), then `- outcomes: { hub: main, of: send-1, wait: 10m }`, with its `when:`"
            ),
            "\(warned.err)")

        let fixed = await CommandRunner.run(["validate", "--fix", path], environment: environment)
        #expect(fixed.status == 0 && fixed.out == "\(path): ok\n", "\(fixed)")
        // The moved outputs are read from the new step; the send's own (`accepted`) still from the send.
        #expect(
            try String(contentsOfFile: path, encoding: .utf8) == head + """
                  - send:
                      hub: main
                      audience: fans
                      properties: { message: "hi" }   # the greeting
                    when: always
                    id: send-1
                  - id: send-1-outcomes
                    when: always
                    outcomes: { hub: main, of: send-1, wait: 10m }
                  - when: ${steps.send-1-outcomes.delivered} == 0
                    send: { hub: main, audience: ops, properties: { message: "none of ${steps.send-1.accepted} reached: ${steps.send-1-outcomes.outcome-state}" } }

                """)

        // A comment inside the old key: the edits cannot be made with certainty, so none is; the warning says what to write.
        let commented =
            head + """
                  - id: digest
                    send:
                      hub: main
                      audience: fans
                      outcomes:
                        # how long
                        wait: 10m

                """
        try commented.write(toFile: path, atomically: true, encoding: .utf8)
        let kept = await CommandRunner.run(["validate", "--fix", path], environment: environment)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == commented)
        #expect(kept.err.contains("write the new step after this one by hand"), "\(kept.err)")
    }
}
