import CommandTestSupport
import Foundation
import Testing

/// Bad rows that come from a source step rather than a file: a `query` of a SQLite table and a rows plugin hand on a
/// row whose `userId` is null. Under `bad-rows: stop` (the default) the send refuses its input before it sends: the run
/// ends rejected with exit 2, the emulator receives nothing, and a `when: always` summary still posts. A `for-each`
/// that reads `$(user_id)` from rows that have `userId` is told the row's columns and `userId`.
@Suite struct RejectedSourceProcessTests {
    /// Where the rows come from.
    enum Source: String, CaseIterable, Sendable, CustomStringConvertible {
        case query, plugin
        var description: String { rawValue }
    }

    /// The rows: Ann (u-1), Bo (no user id), Cy (u-3), in that order.
    static let rows = [("u-1", "Ann"), (nil, "Bo"), ("u-3", "Cy")] as [(String?, String)]

    /// A scratch folder (`queryScratch`: users u-1 … u-3 and `devices.yaml`, which registers them) with the rows as a
    /// `members` table of `app.sqlite` and as a tiny rows plugin, `fixed_rows.py`.
    func scratch() throws -> String {
        let directory = try PipelineRunProcessTests().queryScratch(users: 3)
        let values = Self.rows.map { "(\($0.0.map { "'\($0)'" } ?? "NULL"), '\($0.1)')" }.joined(separator: ", ")
        try PipelineRunProcessTests.sqlite(
            directory + "/app.sqlite",
            "CREATE TABLE members (user_id TEXT, name TEXT); INSERT INTO members VALUES \(values);")
        let rows = Self.rows.map { #"{"userId": \#($0.0.map { "\"\($0)\"" } ?? "None"), "name": "\#($0.1)"}"# }
        try """
        import sys
        sys.path.insert(0, "\(CommandRunner.root)/plugins")
        from pushline_plugin import Plugin

        plugin = Plugin(summary="hands on three members", effects="none", options=[],
                        outputs=[{"name": "rows", "type": "rows", "summary": "the members"},
                         {"name": "count", "type": "integer", "summary": "how many"}])


        @plugin.run
        def run(options, context, emit):
            emit.rows([\(rows.joined(separator: ", "))])
            return {"summary": "handed on 3 members", "outputs": {"count": 3}}


        plugin.serve()

        """.write(toFile: directory + "/fixed_rows.py", atomically: true, encoding: .utf8)
        return directory
    }

    /// members → digest (a send per row, `$(column)` its user) → a `when: always` summary posted to `api`'s webhook.
    func pipeline(
        _ directory: String, source: Source, api: PipelineRunProcessTests.APIServer, column: String = "userId",
        badRows: String? = nil
    ) throws -> String {
        let path = directory + "/members-\(source)-\(column)\(badRows.map { "-\($0)" } ?? "").yaml"
        let step =
            switch source {
            case .query:
                #"query: { database: app.sqlite, sql: 'select user_id as "userId", name from members order by name' }"#
            case .plugin: "fixed-rows: {}"
            }
        try """
        version: 1
        name: members-\(source)-\(column)\(badRows.map { "-\($0)" } ?? "")
        plugins:
          fixed-rows: { command: [python3, \(directory)/fixed_rows.py] }
          webhook: { command: [python3, \(CommandRunner.root)/plugins/webhook.py], timeout: 30s }
        hubs:
          main: { connection: "${env:NH_CONNECTION}", hub: myhub }
        templates:
          digest: { platform: apns, body: '{"aps":{"alert":"$(message)"}}' }
        steps:
          - id: users
            \(step)
          - id: digest
            send:
              hub: main
              for-each: ${steps.users.rows}
              audience: "$UserId:{$(\(column))}"
              properties: { message: "Hello $(name)" }\(badRows.map { "\n      bad-rows: \($0)" } ?? "")
          - name: summary
            when: always
            webhook: { url: "\(api.base)/hook", text: "digest ${steps.digest.status} (${steps.digest.error}): ${steps.digest.accepted} sent, ${steps.digest.bad} bad, ${steps.digest.skipped} not sent of ${steps.digest.total}, ${steps.users.count} rows" }

        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "a row with a null userId from a query or a rows plugin, under bad-rows: stop: the run is rejected with exit 2, nothing is sent, and the when: always summary still posts; with bad-rows: skip the good rows are sent",
        arguments: Source.allCases)
    func aNullUserIdRejectsTheRun(_ source: Source) async throws {
        let runs = PipelineRunProcessTests()
        let (emulator, base, strings) = try await runs.emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let api = try PipelineRunProcessTests.APIServer(members: 0)
        defer { api.stop() }
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite"]
        // u-1 and u-3 have phones: a send to them would be delivered.
        let (registered, registration) = try await runs.run(
            ["run", directory + "/devices.yaml", "--quiet"], connection: full, environment: environment)
        #expect(registered == 0, "\(registration)")

        let pipeline = try pipeline(directory, source: source, api: api)
        let (status, output) = try await runs.run(
            ["run", pipeline, "--report", directory + "/report.json"], connection: full, environment: environment)
        #expect(status == 2, "\(output)")
        #expect(
            output.contains("the input check found 3 records in 'steps.users.rows', 1 malformed; nothing was sent"),
            "\(output)")
        #expect(
            output.contains("steps.users.rows:2: audience '$UserId:{}' is not a valid tag expression"), "\(output)")
        #expect(output.contains("result: rejected"), "\(output)")
        #expect(try await runs.delivered(base).counts.isEmpty, "the good rows were sent")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json")))
                as? [String: Any])
        #expect(report["status"] as? String == "rejected")
        let steps = try #require(report["steps"] as? [[String: Any]])
        #expect(steps.map { $0["status"] as? String } == ["succeeded", "failed", "succeeded"], "\(steps)")
        let posts = api.lines("posts")
        #expect(posts.count == 1, "the summary ran once: \(posts)")
        #expect(
            posts.first?.contains(
                "digest rejected (the input check found 3 records in 'steps.users.rows', 1 malformed; nothing was sent by this step): 0 sent, 1 bad, 2 not sent of 3, 3 rows"
            ) == true, "\(posts)")

        // The same rows with bad-rows: skip: the two good rows are delivered, the bad one reported (partial, exit 3).
        let skipping = try self.pipeline(directory, source: source, api: api, badRows: "skip")
        let (skipped, skipOutput) = try await runs.run(["run", skipping], connection: full, environment: environment)
        #expect(skipped == 3, "\(skipOutput)")
        #expect(try await runs.delivered(base).counts == ["u-1": 1, "u-3": 1], "\(skipOutput)")
        #expect(
            api.lines("posts").last?.contains(": 2 sent, 1 bad, 0 not sent of 3, 3 rows") == true,
            "\(api.lines("posts"))")
        #expect(try await emulator.stop() == 0)
    }

    @Test(
        "a for-each that reads $(user_id) from rows that have userId is told the row's columns and userId: before the run for a query, at the send for a plugin's rows",
        arguments: Source.allCases)
    func aMisnamedColumnSuggestsTheRowsOwn(_ source: Source) async throws {
        let runs = PipelineRunProcessTests()
        let (emulator, base, strings) = try await runs.emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let api = try PipelineRunProcessTests.APIServer(members: 0)
        defer { api.stop() }
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite"]
        let pipeline = try pipeline(directory, source: source, api: api, column: "user_id")
        let (status, output) = try await runs.run(["run", pipeline], connection: full, environment: environment)
        #expect(status == 2, "\(output)")
        switch source {
        case .query:
            // A SQLite query's columns are known when the pipeline is read: nothing runs.
            #expect(
                output.contains(
                    "error: [send] the step reads column 'user_id', which the rows of step 'users' (query) do not have; did you mean 'userId'?"
                ), "\(output)")
            #expect(output.contains("hint: its columns: userId, name"), "\(output)")
            #expect(api.lines("posts").isEmpty, "the run did not start: \(output)")
        case .plugin:
            // A plugin's columns are known once it has run: the send refuses every row, naming its columns.
            for row in 1...3 {
                #expect(
                    output.contains(
                        "steps.users.rows:\(row): the row has no 'user_id'; did you mean 'userId'? (its columns: name, userId)"
                    ), "\(output)")
            }
            #expect(output.contains("result: rejected"), "\(output)")
            #expect(api.lines("posts").count == 1, "the summary still ran")
        }
        #expect(try await runs.delivered(base).counts.isEmpty)
        #expect(try await emulator.stop() == 0)
    }
}
