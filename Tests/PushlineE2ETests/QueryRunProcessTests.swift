import CSQLite
import CommandTestSupport
import Foundation
import PipelineCore
import Testing

/// `query` feeding `send` in real runs against the emulator: from SQLite and from PostgreSQL, a dry run that shows the
/// query's real rows, and a run killed half-way that resumes after the table changed and sends the rows it first
/// selected, none twice, and no row added since.
extension PipelineRunProcessTests {
    /// Runs SQL on a SQLite file (made if missing).
    static func sqlite(_ path: String, _ sql: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw CocoaError(.fileWriteUnknown) }
        defer { sqlite3_close(db) }
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            throw CocoaError(
                .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: message.map { String(cString: $0) } ?? "?"])
        }
    }

    /// A scratch directory with `app.sqlite` (users u-1 … u-`count`, each with a device token), a devices CSV of those users
    /// and of `extra` more, and the pipelines.
    func queryScratch(users count: Int, extra: ClosedRange<Int>? = nil) throws -> String {
        let directory = NSTemporaryDirectory() + "pushline-query-run-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let values = (1...count).map { "('u-\($0)', '\(String(format: "%064X", $0))')" }.joined(separator: ",")
        try Self.sqlite(
            directory + "/app.sqlite",
            "CREATE TABLE users (user_id TEXT, token TEXT); INSERT INTO users VALUES \(values);")
        let everyone = Array(1...count) + (extra.map(Array.init) ?? [])
        try
            ("userId,token\n" + everyone.map { "u-\($0),\(String(format: "%064X", $0))" }.joined(separator: "\n") + "\n")
            .write(toFile: directory + "/devices.csv", atomically: true, encoding: .utf8)
        try
            (Self.queryHead.replacingOccurrences(of: "NAME", with: "devices") + """
                  - register:
                      hub: main
                      for-each: devices.csv
                      templates: [digest]
                      installations:
                        - { installationId: "$(userId)", platform: apns, pushChannel: "$(token)", tags: ["$UserId:{$(userId)}"] }

                """)
            .write(toFile: directory + "/devices.yaml", atomically: true, encoding: .utf8)
        return directory
    }

    static let queryHead = """
        version: 1
        name: NAME
        hubs:
          main: { connection: "${env:NH_CONNECTION}", hub: myhub }
        templates:
          digest: { platform: apns, body: '{"aps":{"alert":"$(message)"}}' }
        steps:

        """

    /// A pipeline that queries `database` and sends each row its digest, `rate` a second.
    private func queryPipeline(_ directory: String, database: String, rate: Int = 500) throws -> String {
        let path = directory + "/digest.yaml"
        try
            (Self.queryHead.replacingOccurrences(of: "NAME", with: "query-digest") + """
                  - id: users
                    query:
                      database: \(database)
                      sql: select user_id as "userId" from users order by user_id
                  - send:
                      hub: main
                      for-each: ${steps.users.rows}
                      audience: "$UserId:{$(userId)}"
                      properties: { message: "digest for $(userId)" }
                      rate: \(rate)
                  - when: always
                    send: { hub: main, audience: "$UserId:{u-1}", properties: { message: "summary: ${steps.users.count} selected" } }

                """)
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Deliveries by installation id, and the messages delivered.
    func delivered(_ base: String) async throws -> (counts: [String: Int], messages: [String]) {
        let text = try await http("GET", "\(base)_emulator/deliveries").1
        let list = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
        var counts: [String: Int] = [:]
        for delivery in list { counts[delivery["installationId"] as? String ?? "?", default: 0] += 1 }
        return (counts, list.compactMap { $0["payload"] as? String })
    }

    @Test(
        "a query of a SQLite file feeds a register and a send: the dry run shows the real rows and sends nothing; the run sends each row once and hands on the count"
    )
    func queryFromSQLiteFeedsASend() async throws {
        let (emulator, base, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let directory = try queryScratch(users: 3)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite"]
        // The devices come from the query too: register's for-each takes rows as send's does.
        try
            (Self.queryHead.replacingOccurrences(of: "NAME", with: "devices-from-db") + """
                  - id: devices
                    query: { database: app.sqlite, sql: "select user_id as \\"userId\\", token from users" }
                  - register:
                      hub: main
                      for-each: ${steps.devices.rows}
                      templates: [digest]
                      installations:
                        - { installationId: "$(userId)", platform: apns, pushChannel: "$(token)", tags: ["$UserId:{$(userId)}"] }

                """).write(toFile: directory + "/devices-from-db.yaml", atomically: true, encoding: .utf8)
        let (registered, registration) = try await run(
            ["run", directory + "/devices-from-db.yaml"], connection: full, environment: environment)
        #expect(registered == 0 && registration.contains("registered 3 installations"), "\(registration)")
        let pipeline = try queryPipeline(directory, database: "app.sqlite")

        let (dryStatus, dry) = try await run(
            ["run", pipeline, "--dry-run"], connection: full, environment: environment)
        #expect(dryStatus == 0, "\(dry)")
        #expect(dry.contains("[1/3] query") && dry.contains("read 3 rows from '\(directory)/app.sqlite'"), "\(dry)")
        #expect(
            dry.contains(#"row: {"userId":"u-1"}"#) && dry.contains("ServiceBusNotification-Tags: $UserId:{u-3}"),
            "\(dry)")
        #expect(dry.contains(#"{"message":"digest for u-2"}"#), "\(dry)")
        #expect(try await delivered(base).counts.isEmpty, "a dry run sends nothing")

        let (status, output) = try await run(
            ["run", pipeline, "--report", directory + "/report.json"], connection: full, environment: environment)
        #expect(status == 0, "\(output)")
        let (counts, messages) = try await delivered(base)
        #expect(counts == ["u-1": 2, "u-2": 1, "u-3": 1], "each row once, and u-1 the summary")
        #expect(messages.contains { $0.contains("summary: 3 selected") })
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json")))
                as? [String: Any])
        let steps = try #require(report["steps"] as? [[String: Any]])
        let outputs = try #require(steps[0]["outputs"] as? [String: Any])
        #expect(
            outputs["count"] as? Int == 3 && (outputs["rows"] as? [String: Any])?["columns"] as? [String] == ["userId"])
        let show = try PushlineProcess(
            ["runs", "show", try #require(report["runId"] as? String)], environment: environment)
        #expect(try await show.waitForExit() == 0)
        #expect(show.stdout.contains("count 3; rows 3 rows (userId; sha256 "), "\(show.stdout)")
        #expect(try await emulator.stop() == 0)
    }

    @Test(
        "a run killed half-way resumes after rows were added to and deleted from the table: the rows first selected are sent, none twice, no new one (those the kill left in flight are reported unknown)"
    )
    func killedQueryRunResumesFromItsSpool() async throws {
        let (emulator, base, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let directory = try queryScratch(users: 1_500, extra: 5_001...5_050)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite", "NH_CONNECTION": full]
        #expect(
            try await run(["run", directory + "/devices.yaml", "--quiet"], connection: full, environment: environment).0
                == 0)
        let pipeline = try queryPipeline(directory, database: "app.sqlite", rate: 250)

        let first = try PushlineProcess(["run", pipeline, "--quiet"], environment: environment)
        let deadline = Date().addingTimeInterval(60)
        while try await delivered(base).counts.values.reduce(0, +) < 400, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        _ = try await first.stop(signal: SIGKILL)
        let before = try await delivered(base).counts.values.reduce(0, +)
        #expect(before >= 400 && before < 1_500, "killed half-way: \(before)")

        // Meanwhile the table changes: some rows go (sent ones and unsent ones), new ones come.
        try Self.sqlite(
            directory + "/app.sqlite",
            """
            DELETE FROM users WHERE user_id IN ('u-1', 'u-10', 'u-999', 'u-1499');
            INSERT INTO users VALUES \((5_001...5_050).map { "('u-\($0)', '\(String(format: "%064X", $0))')" }.joined(separator: ","));
            """)
        let (status, output) = try await run(
            ["run", pipeline, "--report", directory + "/report.json"], connection: full, environment: environment)
        #expect(output.contains("resuming run"), "\(output)")
        #expect(
            output.contains("[1/3] query")
                && output.contains("done by an earlier attempt of this run: read 1,500 rows"), "\(output)")
        #expect(status == 0 || status == 3, "\(output)")
        let (counts, _) = try await delivered(base)
        let original = Set((1...1_500).map { "u-\($0)" })
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json")))
                as? [String: Any])
        let items = try #require(((report["steps"] as? [[String: Any]])?[1])?["items"] as? [String: Int])
        // The report reconciles with the rows first selected: done before, sent now, or of unknown fate.
        #expect(
            items["skipped", default: 0] + items["accepted", default: 0] + items["unknown", default: 0] == 1_500,
            "\(items)")
        // No row added since, and none twice (u-1 also gets the summary).
        #expect(
            Set(counts.keys).isSubset(of: original),
            "new rows were sent: \(Set(counts.keys).subtracting(original).sorted().prefix(10))")
        let twice = counts.filter { $0.value > ($0.key == "u-1" ? 2 : 1) }
        #expect(twice.isEmpty, "sent twice: \(twice.keys.sorted().prefix(10))")
        // Every row first selected, the deleted ones too, except those the kill left in flight: reported unknown, not
        // resent (whether the hub got them is for `runs resolve` to settle).
        let missing = original.subtracting(counts.keys)
        #expect(
            missing.count <= items["unknown", default: 0],
            "dropped: \(missing.sorted().prefix(10)) with \(items["unknown", default: 0]) unknown")
        #expect(try await emulator.stop() == 0)
    }

    @Test("a query of PostgreSQL feeds a send (a database of its own on the CI server)")
    func queryFromPostgresFeedsASend() async throws {
        guard JournalKind.all.count > 1 else { return }
        let (emulator, base, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let directory = try queryScratch(users: 2)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = try await JournalKind.postgres.make(directory)
        let psql = Process()
        psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        psql.arguments = [
            "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", database, "-c",
            "CREATE TABLE users (user_id text, token text); INSERT INTO users VALUES ('u-1', 'a'), ('u-2', 'b')",
        ]
        try psql.run()
        psql.waitUntilExit()
        #expect(psql.terminationStatus == 0)
        let environment = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite", "APP_DATABASE": database]
        #expect(
            try await run(["run", directory + "/devices.yaml", "--quiet"], connection: full, environment: environment).0
                == 0)
        let pipeline = try queryPipeline(directory, database: "${env:APP_DATABASE}")
        let (status, output) = try await run(["run", pipeline], connection: full, environment: environment)
        #expect(status == 0, "\(output)")
        let password = try #require(URLComponents(string: database)?.password)
        #expect(!output.contains(password), "the database's password is never shown")
        #expect(try await delivered(base).counts == ["u-1": 2, "u-2": 1])
        #expect(try await emulator.stop() == 0)
    }
}

extension PipelineRunProcessTests {
    @Test(
        "the digest-from-database example: its query selects the opted-in users with unread items, each gets a digest, and ops a summary; the same rows again send nothing; a failing query still posts the summary"
    )
    func digestFromDatabaseExample() async throws {
        let (emulator, base, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let directory = NSTemporaryDirectory() + "pushline-db-example-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let users = ["alice", "bob", "chen", "dara", "emeka", "farah", "gus", "hana"]
        let devices =
            users.enumerated().map { index, user in
                "        - { installationId: \(user), platform: apns, pushChannel: \(String(format: "%064X", index + 1)), tags: [\"$UserId:{\(user)}\"] }"
            } + [
                "        - { installationId: ops-1, platform: apns, pushChannel: \(String(format: "%064X", 99)), tags: [ops] }"
            ]
        try """
        version: 1
        hubs:
          main: { connection: "${env:NH_CONNECTION}", hub: myhub }
        templates:
          alert: { platform: apns, body: '{"aps":{"alert":"$(message)"}}' }
        steps:
          - register:
              hub: main
              templates: [alert]
              installations:
        \(devices.joined(separator: "\n"))

        """.write(toFile: directory + "/devices.yaml", atomically: true, encoding: .utf8)
        let environment = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite"]
        #expect(
            try await run(["run", directory + "/devices.yaml", "--quiet"], connection: full, environment: environment).0
                == 0)
        let example = CommandRunner.root + "/pipelines/digest-from-database.yaml"
        let (dryStatus, dry) = try await run(["run", example, "--dry-run"], connection: full, environment: environment)
        #expect(
            dryStatus == 0 && dry.contains("[1/3] users with unread items")
                && dry.contains(
                    "read 5 rows from '\(FilePath.shown(CommandRunner.root + "/pipelines/data/app.sqlite"))'"),
            "\(dry)")
        let (status, output) = try await run(["run", example], connection: full, environment: environment)
        #expect(status == 0, "\(output)")
        let text = try await http("GET", "\(base)_emulator/deliveries").1
        let list = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
        let reached = list.compactMap { $0["installationId"] as? String }.sorted()
        #expect(reached == ["alice", "bob", "chen", "farah", "hana", "ops-1"], "\(reached)")
        #expect(
            text.contains(#"Farah \\\"Fay\\\", you have 2 unread items"#),
            "a value from the database is escaped into the payload: \(text)")
        #expect(
            text.contains(
                "nightly digest: 5 selected, 5 sent, 0 already sent, 0 failed, 0 unknown, 0 bad (query succeeded, send succeeded)"
            ), "\(text)")

        // The same command again reads the same rows: nothing is sent, not even the summary, and it says so.
        let (againStatus, again) = try await run(["run", example], connection: full, environment: environment)
        #expect(againStatus == 0 && again.contains("already completed") && again.contains("nothing sent"), "\(again)")
        #expect(try await http("GET", "\(base)_emulator/deliveries").1 == text)
        // A dry run and check say so first, from the same decision: the sources read and compared as a live start does.
        let (_, dryAgain) = try await run(["run", example, "--dry-run"], connection: full, environment: environment)
        let verdict = "a live run would send nothing: the sources gave the rows run "
        #expect(dryAgain.split(separator: "\n").first?.contains(verdict) == true, "\(dryAgain)")
        let (checkStatus, check) = try await run(["check", example], connection: full, environment: environment)
        #expect(checkStatus == 0 && check.split(separator: "\n").first?.contains(verdict) == true, "\(check)")
        #expect(check.hasSuffix("done: the same data completed; a live run would send nothing\n"), "\(check)")

        // A query that fails still posts the summary: counts of 0, and which step failed.
        let broken = directory + "/broken"
        try FileManager.default.createDirectory(atPath: broken + "/data", withIntermediateDirectories: true)
        try Self.sqlite(broken + "/data/app.sqlite", "CREATE TABLE other (x TEXT);")
        try String(contentsOfFile: example, encoding: .utf8).write(
            toFile: broken + "/digest.yaml", atomically: true, encoding: .utf8)
        let (failedStatus, failed) = try await run(
            ["run", broken + "/digest.yaml"], connection: full, environment: environment)
        #expect(failedStatus == 1 && failed.contains("no such table: users"), "\(failed)")
        let after = try await http("GET", "\(base)_emulator/deliveries").1
        #expect(
            after.contains(
                "nightly digest: 0 selected, 0 sent, 0 already sent, 0 failed, 0 unknown, 0 bad (query failed, send skipped)"
            ), "\(after)")
        #expect(try await emulator.stop() == 0)
    }
}

extension PipelineRunProcessTests {
    @Test(
        "a split run queries once: the part that starts first spools the rows, every part sends its share of that one spool, each row exactly once"
    )
    func splitQueryRunSharesOneSpool() async throws {
        let (emulator, base, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let directory = NSTemporaryDirectory() + "pushline-query-split-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Slow enough that the parts overlap: a recursive count before the rows come back.
        let values = (1...600).map { "('u-\($0)', '\(String(format: "%064X", $0))')" }.joined(separator: ",")
        try Self.sqlite(
            directory + "/app.sqlite",
            "CREATE TABLE users (user_id TEXT, token TEXT); INSERT INTO users VALUES \(values);")
        let devices = (1...600).map { "u-\($0),\(String(format: "%064X", $0))" }.joined(separator: "\n")
        try ("userId,token\n" + devices + "\n").write(
            toFile: directory + "/devices.csv", atomically: true, encoding: .utf8)
        let head = """
            version: 1
            hubs:
              main: { connection: "${env:NH_CONNECTION}", hub: myhub }
            templates:
              digest: { platform: apns, body: '{"aps":{"alert":"$(message)"}}' }
            steps:

            """
        try
            (head + """
                  - register:
                      hub: main
                      for-each: devices.csv
                      templates: [digest]
                      installations:
                        - { installationId: "$(userId)", platform: apns, pushChannel: "$(token)", tags: ["$UserId:{$(userId)}"] }

                """).write(toFile: directory + "/devices.yaml", atomically: true, encoding: .utf8)
        try
            (head.replacingOccurrences(of: "version: 1", with: "version: 1\nname: split-query") + """
                  - id: users
                    query:
                      database: app.sqlite
                      sql: |
                        with recursive spin(i) as (select 1 union all select i + 1 from spin where i < 3000000)
                        select user_id as "userId" from users where (select count(*) from spin) > 0 order by user_id
                  - send: { hub: main, for-each: "${steps.users.rows}", audience: "$UserId:{$(userId)}", properties: { message: "hi $(userId)" } }

                """).write(toFile: directory + "/split.yaml", atomically: true, encoding: .utf8)
        let environment = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite", "NH_CONNECTION": full]
        #expect(
            try await run(["run", directory + "/devices.yaml", "--quiet"], connection: full, environment: environment).0
                == 0)
        let parts = try (0..<2).map { index in
            try PushlineProcess(["run", directory + "/split.yaml", "--shard", "\(index)/2"], environment: environment)
        }
        var outputs: [String] = []
        for part in parts {
            #expect(try await part.waitForExit(timeout: 120) == 0, "\(part.stdout)")
            outputs.append(part.stdout)
        }
        let read = outputs.filter { $0.contains("read 600 rows from '\(directory)/app.sqlite'") }
        let spooled = outputs.filter { $0.contains("600 rows spooled from '\(directory)/app.sqlite' earlier") }
        #expect(read.count == 1 && spooled.count == 1, "one part queried, the other read its spool: \(outputs)")
        let text = try await http("GET", "\(base)_emulator/deliveries").1
        let list = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
        var counts: [String: Int] = [:]
        for delivery in list { counts[delivery["installationId"] as? String ?? "?", default: 0] += 1 }
        #expect(
            counts.count == 600 && counts.values.allSatisfy { $0 == 1 },
            "\(counts.count) users, \(counts.values.filter { $0 > 1 }.count) more than once")
        #expect(try await emulator.stop() == 0)
    }
}
