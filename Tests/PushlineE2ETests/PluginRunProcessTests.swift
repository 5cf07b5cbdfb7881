import CommandTestSupport
import Foundation
import Testing

/// The bundled plugins in real runs against the emulator: `http-rows` (a paged JSON API on loopback) feeds a `send`,
/// and `webhook` posts the summary with `when: always`. A run killed half-way resumes without running the plugin
/// again, every row sent once; a dry run runs `http-rows` and not `webhook`; `validate` places a misspelled plugin
/// option.
extension PipelineRunProcessTests {
    /// The loopback API: its base URL, and the folder where it counts page reads (`gets`) and keeps posts (`posts`).
    final class APIServer {
        let process = Process()
        let state: String
        let base: String

        init(members: Int) throws {
            state = NSTemporaryDirectory() + "pushline-api-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "python3", CommandRunner.root + "/Tests/PushlineCLITests/Inputs/plugins/api_server.py", state,
                "\(members)",
            ]
            process.standardOutput = output
            try process.run()
            let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            guard
                let port = line.split(separator: " ").last.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }),
                !port.isEmpty
            else {
                throw CocoaError(.fileReadUnknown)
            }
            base = "http://127.0.0.1:\(port)"
        }

        /// The lines of `name` in the state folder.
        func lines(_ name: String) -> [String] {
            ((try? String(contentsOfFile: state + "/" + name, encoding: .utf8)) ?? "").split(separator: "\n").map(
                String.init)
        }

        func stop() {
            // SIGKILL: the test process ignores SIGTERM (for its own servers' graceful stops), and a child started by
            // Foundation's Process inherits that.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: state)
        }
    }

    /// members → digest → summary, the plugins named by their files in the repository.
    func pluginPipeline(
        _ directory: String, api: APIServer, rate: Int = 500, membersKey: String = "items",
        membersPath: String = "/members"
    ) throws -> String {
        let path = directory + "/crm-digest.yaml"
        let plugins = CommandRunner.root + "/plugins"
        try """
        version: 1
        name: crm-digest
        plugins:
          http-rows:
            command: [python3, \(plugins)/http_rows.py]
            env: { CRM_TOKEN: "${env:CRM_TOKEN}" }
          webhook:
            command: [python3, \(plugins)/webhook.py]
            timeout: 30s
        hubs:
          main: { connection: "${env:NH_CONNECTION}", hub: myhub }
        templates:
          digest: { platform: apns, body: '{"aps":{"alert":"$(message)"}}' }
        steps:
          - id: members
            http-rows: { url: "\(api.base)\(membersPath)", \(membersKey): data, next: links.next, bearer-env: CRM_TOKEN }
          - id: digest
            send:
              hub: main
              for-each: "${steps.members.rows}"
              audience: "$UserId:{$(userId)}"
              properties: { message: "Hello $(name)" }
              rate: \(rate)
          - name: tell the on-call channel
            when: always
            webhook: { url: "\(api.base)/hook", text: "digest: ${steps.digest.accepted} sent, ${steps.digest.failed} failed, ${steps.members.count} members (${steps.members.status}: ${steps.members.error})" }

        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "validate asks the plugins what they take: a misspelled plugin option is an error at its line and column, with did-you-mean"
    )
    func validatePlacesAMisspelledPluginOption() async throws {
        let api = try APIServer(members: 3)
        defer { api.stop() }
        let directory = try queryScratch(users: 1)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pipeline = try pluginPipeline(directory, api: api, membersKey: "itmes")
        let validate = try PushlineProcess(
            ["validate", pipeline], environment: ["NH_CONNECTION": "", "CRM_TOKEN": "crm-token-123"])
        #expect(try await validate.waitForExit() == 2)
        let lines = try String(contentsOfFile: pipeline, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("itmes:") })
        let column = try #require(lines[line].range(of: "itmes")).lowerBound.utf16Offset(in: lines[line]) + 1
        #expect(
            validate.stdout.contains(
                "crm-digest.yaml:\(line + 1):\(column): error: [http-rows] unknown key 'itmes'; did you mean 'items'?"),
            "\(validate.stdout)")
        #expect(api.lines("gets").isEmpty, "validate reads nothing")
    }

    @Test(
        "http-rows feeds a send and webhook posts the summary; killed half-way, the run resumes without reading the API again and sends every row once; a dry run reads the API and posts nothing"
    )
    func pluginsFeedASendAndResume() async throws {
        let (emulator, base, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let api = try APIServer(members: 1_200)
        defer { api.stop() }
        let directory = try queryScratch(users: 1_200)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = [
            "PUSHLINE_JOURNAL": directory + "/journal.sqlite", "NH_CONNECTION": full, "CRM_TOKEN": "crm-token-123",
        ]
        #expect(
            try await run(["run", directory + "/devices.yaml", "--quiet"], connection: full, environment: environment).0
                == 0)
        let pipeline = try pluginPipeline(directory, api: api, rate: 250)

        // A dry run reads the API (no external effects) and does not post (external effects).
        let (dryStatus, dryOutput) = try await run(
            ["run", pipeline, "--dry-run"], connection: full, environment: environment)
        #expect(dryStatus == 0, "\(dryOutput)")
        #expect(
            dryOutput.contains("read 1200 rows in 12 pages (a dry run: the plugin has no external effects, so it ran)"),
            "\(dryOutput)")
        #expect(dryOutput.contains("would run plugin 'webhook'"), "\(dryOutput)")
        #expect(api.lines("gets").count == 12 && api.lines("posts").isEmpty)
        #expect(try await delivered(base).counts.isEmpty)

        let first = try PushlineProcess(["run", pipeline, "--quiet"], environment: environment)
        let deadline = Date().addingTimeInterval(60)
        while try await delivered(base).counts.values.reduce(0, +) < 300, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        _ = try await first.stop(signal: SIGKILL)
        let before = try await delivered(base).counts.values.reduce(0, +)
        #expect(before >= 300 && before < 1_200, "killed half-way: \(before)")
        #expect(api.lines("gets").count == 24)

        // A dry run shows the resume: the members step read back (the API is not read again), the rows sent skipped.
        let (previewStatus, preview) = try await run(
            ["run", pipeline, "--dry-run"], connection: full, environment: environment)
        // It ends with the code the resume would: 3 when rows were in flight at the kill (unknown, not resent).
        #expect(previewStatus == 0 || previewStatus == 3, "\(preview)")
        #expect((previewStatus == 3) == preview.contains(" unknown"), "\(preview)")
        #expect(preview.contains("a live run would resume run"), "\(preview)")
        #expect(
            preview.contains("[1/3] http-rows") && preview.contains("done by an earlier attempt of this run"),
            "\(preview)")
        // The send's line counts the rows the killed run had sent as done by an earlier attempt, the rest as would be sent.
        let sendLine = try #require(preview.split(separator: "\n").first { $0.contains("[2/3] send") })
        #expect(sendLine.contains("would be sent") && sendLine.contains("done by an earlier attempt"), "\(preview)")
        #expect(api.lines("gets").count == 24, "the dry run read the API")

        // The API changes meanwhile; the resumed run reads none of it.
        _ = try await http("POST", "\(api.base)/_members/1500")
        let (status, output) = try await run(
            ["run", pipeline, "--report", directory + "/report.json"], connection: full, environment: environment)
        #expect(status == 0 || status == 3, "\(output)")
        #expect(output.contains("resuming run"), "\(output)")
        #expect(
            output.contains("[1/3] http-rows") && output.contains("done by an earlier attempt of this run"), "\(output)"
        )
        #expect(api.lines("gets").count == 24, "the plugin was run again")
        let (counts, _) = try await delivered(base)
        let original = Set((1...1_200).map { "u-\($0)" })
        #expect(
            Set(counts.keys).isSubset(of: original),
            "new members were sent: \(Set(counts.keys).subtracting(original).sorted().prefix(5))")
        #expect(
            counts.filter { $0.value > 1 }.isEmpty,
            "sent twice: \(counts.filter { $0.value > 1 }.keys.sorted().prefix(5))")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json")))
                as? [String: Any])
        let items = try #require(((report["steps"] as? [[String: Any]])?[1])?["items"] as? [String: Int])
        #expect(
            items["skipped", default: 0] + items["accepted", default: 0] + items["unknown", default: 0] == 1_200,
            "\(items)")
        #expect(original.subtracting(counts.keys).count <= items["unknown", default: 0])
        // The summary is posted once, by the run that finished, with its counts.
        let posts = api.lines("posts")
        #expect(posts.count == 1, "\(posts)")
        #expect(
            posts.first?.contains(#"{"text": "digest: "#) == true && posts.first?.contains("1200 members") == true,
            "\(posts)")
        #expect(!output.contains("crm-token-123"))
        #expect(try await emulator.stop() == 0)
    }

    @Test(
        "when the rows plugin fails, the send is skipped and the summary is still posted: no members, and the plugin's error"
    )
    func aFailingRowsPluginStillPostsTheSummary() async throws {
        let (emulator, base, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let api = try APIServer(members: 10)
        defer { api.stop() }
        let directory = try queryScratch(users: 10)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = [
            "PUSHLINE_JOURNAL": directory + "/journal.sqlite", "NH_CONNECTION": full, "CRM_TOKEN": "crm-token-123",
        ]
        let pipeline = try pluginPipeline(directory, api: api, membersPath: "/no-such-segment")
        let (status, output) = try await run(["run", pipeline], connection: full, environment: environment)
        #expect(status == 1, "\(output)")
        #expect(output.contains("[2/3] send") && output.contains("skipped"), "\(output)")
        let posts = api.lines("posts")
        #expect(
            posts.count == 1
                && posts.first?.contains("digest: 0 sent, 0 failed, 0 members (failed: plugin 'http-rows': ") == true,
            "\(posts)")
        #expect(posts.first?.contains("answered 404") == true, "\(posts)")
        #expect(try await delivered(base).counts.isEmpty)
        #expect(!output.contains("crm-token-123") && !(posts.first ?? "").contains("crm-token-123"))
        #expect(try await emulator.stop() == 0)
    }
}

extension PipelineRunProcessTests {
    @Test(
        "a plugin is told the run, the attempt and its step's key; stopped with its run (SIGTERM), it is stopped at once, and the resumed run tells it attempt 2 with the same key",
        arguments: JournalKind.all)
    func pluginsLiveAndDieWithTheirRun(_ kind: JournalKind) async throws {
        let directory = NSTemporaryDirectory() + "pushline-recorder-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "".write(toFile: directory + "/slow", atomically: true, encoding: .utf8)
        let pipeline = directory + "/recorded.yaml"
        try """
        version: 1
        name: recorded
        plugins:
          recorder: { command: [python3, \(CommandRunner.root)/Tests/PushlineCLITests/Inputs/plugins/recorder.py], timeout: 5m }
        steps:
          - id: members
            recorder: { folder: "\(directory)" }

        """.write(toFile: pipeline, atomically: true, encoding: .utf8)
        let environment = ["PUSHLINE_JOURNAL": try await kind.make(directory)]
        let first = try PushlineProcess(["run", pipeline], environment: environment)
        // Its progress is logged under cron (no terminal): the plugin is at work.
        _ = try await first.waitForOutput(containing: "plugin progress")
        let plugin = try #require(Int32(try String(contentsOfFile: directory + "/pid", encoding: .utf8)))
        let status = try await first.stop(signal: SIGTERM)
        #expect(status == 143, "\(first.stdout)")
        #expect(kill(plugin, 0) != 0, "the plugin outlived its run")
        #expect(first.stdout.contains("stopped with the run before plugin 'recorder' finished"), "\(first.stdout)")

        try FileManager.default.removeItem(atPath: directory + "/slow")
        let resumed = try PushlineProcess(["run", pipeline], environment: environment)
        #expect(try await resumed.waitForExit() == 0, "\(resumed.stdout)")
        #expect(resumed.stdout.contains("resuming run"), "\(resumed.stdout)")
        let requests = try String(contentsOfFile: directory + "/requests.jsonl", encoding: .utf8).split(separator: "\n")
            .compactMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        #expect(requests.count == 2)
        let run = try #require(requests.first?["run"] as? String)
        #expect(requests.map { $0["run"] as? String } == [run, run])
        #expect(requests.map { $0["attempt"] as? Int } == [1, 2])
        #expect(requests.map { $0["idempotencyKey"] as? String } == ["\(run)/step-1", "\(run)/step-1"])
    }
}
