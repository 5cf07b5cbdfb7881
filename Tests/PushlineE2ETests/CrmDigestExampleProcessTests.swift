import CommandTestSupport
import Foundation
import Testing

/// The shipped `pipelines/crm-digest.yaml` as cron would run it: the real executable, its own plugins from `plugins/`
/// (`http_rows.py` reads the CRM, `webhook.py` posts the summary), against `pushline emulator`, a loopback CRM and a
/// loopback chat webhook, with the five variables it reads (NH_CONNECTION, NH_HUB, CRM_URL, CRM_TOKEN, OPS_WEBHOOK)
/// and a journal of its own per situation.
@Suite struct CrmDigestExampleProcessTests {
    static let pipeline = CommandRunner.root + "/pipelines/crm-digest.yaml"
    static let token = "crm-token-123"
    static let membersPath = "/segments/weekly-digest/members"

    /// A loopback CRM. `GET /segments/weekly-digest/members` with the bearer token answers members u-1 … u-N (N read
    /// from `count` at every request), two a page, `links.next` relative and null on the last page; another path is
    /// 404, another token 401. Started with a `status` other than 200 it answers every request with that status. Each
    /// request's path and Authorization header is a line of `requests`.
    final class CRM {
        static let script = """
            import json, sys
            from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
            from urllib.parse import parse_qs, urlparse

            STATE, STATUS = sys.argv[1], int(sys.argv[2])


            class Handler(BaseHTTPRequestHandler):
                def log_message(self, *args):
                    pass

                def do_GET(self):
                    with open(STATE + "/requests", "a") as log:
                        log.write("%s %s\\n" % (self.path, self.headers.get("Authorization")))
                    url, count = urlparse(self.path), int(open(STATE + "/count").read())
                    page = int(parse_qs(url.query).get("page", ["1"])[0])
                    first, last = 2 * page - 1, min(2 * page, count)
                    status, body = STATUS, {"error": "down for maintenance"}
                    if STATUS == 200 and url.path != "\(CrmDigestExampleProcessTests.membersPath)":
                        status, body = 404, {"error": "no such segment"}
                    elif STATUS == 200 and self.headers.get("Authorization") != "Bearer \(CrmDigestExampleProcessTests.token)":
                        status, body = 401, {"error": "bad token"}
                    elif STATUS == 200:
                        body = {"data": [{"userId": "u-%d" % n, "name": "Member %d" % n} for n in range(first, last + 1)],
                                "links": {"next": "?page=%d" % (page + 1) if last < count else None}}
                    data = json.dumps(body).encode()
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)


            server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
            print("listening %d" % server.server_address[1], flush=True)
            server.serve_forever()

            """
        let process = Process()
        let state: String
        let base: String

        init(members: Int, status: Int = 200) throws {
            state = NSTemporaryDirectory() + "pushline-crm-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            try Self.script.write(toFile: state + "/crm.py", atomically: true, encoding: .utf8)
            try "\(members)".write(toFile: state + "/count", atomically: true, encoding: .utf8)
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", state + "/crm.py", state, "\(status)"]
            process.standardOutput = output
            try process.run()
            let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            guard line.hasPrefix("listening "),
                let port = Int(line.dropFirst(10).trimmingCharacters(in: .whitespacesAndNewlines))
            else { throw CocoaError(.fileReadUnknown) }
            base = "http://127.0.0.1:\(port)"
        }

        /// The segment now has `count` members.
        func members(_ count: Int) throws {
            try "\(count)".write(toFile: state + "/count", atomically: true, encoding: .utf8)
        }

        /// Each request, as "path Authorization".
        var requests: [String] {
            ((try? String(contentsOfFile: state + "/requests", encoding: .utf8)) ?? "").split(separator: "\n").map(
                String.init)
        }

        /// Stops the CRM: nothing listens on its port any more. Its requests are kept until `remove()`.
        func stop() {
            guard process.isRunning else { return }
            // SIGKILL: a child started by Foundation's Process inherits the test process's ignored SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        func remove() {
            stop()
            try? FileManager.default.removeItem(atPath: state)
        }
    }

    /// How the CRM is down.
    enum Outage: String, CaseIterable, Sendable, CustomStringConvertible {
        case refused, unavailable
        var description: String { rawValue }
    }

    /// The texts the webhook received, in order.
    func texts(_ hook: PipelineRunProcessTests.APIServer) -> [String] {
        hook.lines("posts").map { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["text"] as? String ?? line
        }
    }

    /// The steps' statuses in the run's `--report`.
    func statuses(_ report: String) throws -> [String?] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
        let steps = try #require((json as? [String: Any])?["steps"] as? [[String: Any]])
        return steps.map { $0["status"] as? String }
    }

    @Test(
        "the shipped crm-digest with the CRM down (a closed port, a 503): the members step fails, the digest is skipped, nothing is delivered, the summary still posts 0 sent and why, and the run exits 1",
        arguments: Outage.allCases)
    func theCRMDownStillPostsTheSummary(_ outage: Outage) async throws {
        let runs = PipelineRunProcessTests()
        let (emulator, base, strings) = try await runs.emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let hook = try PipelineRunProcessTests.APIServer(members: 0)
        defer { hook.stop() }
        let crm = try CRM(members: 3, status: 503)
        defer { crm.remove() }
        if outage == .refused { crm.stop() }  // nothing listens on its port now
        let directory = try runs.queryScratch(users: 3)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = [
            "PUSHLINE_JOURNAL": directory + "/journal.sqlite", "CRM_URL": crm.base, "CRM_TOKEN": Self.token,
            "OPS_WEBHOOK": hook.base + "/hook",
        ]
        // The members have phones: a send to them would be delivered.
        let (registered, registration) = try await runs.run(
            ["run", directory + "/devices.yaml", "--quiet"], connection: full, environment: environment)
        #expect(registered == 0, "\(registration)")

        let (status, output) = try await runs.run(
            ["run", Self.pipeline, "--report", directory + "/report.json"], connection: full, environment: environment)
        #expect(status == 1, "\(output)")
        let lines = output.split(separator: "\n")
        #expect(
            lines.contains {
                $0.hasPrefix("[2/3] the weekly digest") && $0.contains("skipped: an earlier step failed")
            },
            "\(output)")
        #expect(
            lines.contains {
                $0.hasPrefix("[3/3] tell the on-call channel") && $0.contains("posted to the webhook (200)")
            },
            "\(output)")
        #expect(output.contains("result: failed (steps: 1 succeeded, 1 failed, 1 skipped)"), "\(output)")
        #expect(try statuses(directory + "/report.json") == ["failed", "skipped", "succeeded"])
        #expect(try await runs.delivered(base).counts.isEmpty)

        let summary = "weekly digest: 0 sent, 0 already sent, 0 failed, 0 unknown, 0 bad of 0 members"
        let failed = "(members: failed plugin 'http-rows': \(crm.base)\(Self.membersPath)"
        let posts = texts(hook)
        #expect(posts.count == 1, "\(posts)")
        switch outage {
        case .unavailable:
            #expect(posts == ["\(summary) \(failed) answered 503 Service Unavailable)"])
            #expect(crm.requests == ["\(Self.membersPath) Bearer \(Self.token)"])
        case .refused:
            // The errno's number differs by OS: the text around it does not.
            let post = posts.first ?? ""
            #expect(post.hasPrefix("\(summary) \(failed) could not be reached: "), "\(posts)")
            #expect(post.hasSuffix("Connection refused)"), "\(posts)")
        }
        #expect(!output.contains(Self.token) && !posts.joined().contains(Self.token))
        #expect(try await emulator.stop() == 0)
    }

    @Test(
        "the shipped crm-digest with the CRM up: every page is read with the token, each member's phone gets its digest, the summary posts the counts; the same segment again sends and posts nothing; a new member is sent alone, the others already sent"
    )
    func theCRMUpDeliversAndPostsTheCounts() async throws {
        let runs = PipelineRunProcessTests()
        let (emulator, base, strings) = try await runs.emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let hook = try PipelineRunProcessTests.APIServer(members: 0)
        defer { hook.stop() }
        let crm = try CRM(members: 3)
        defer { crm.remove() }
        // u-1 … u-4 have phones; the segment holds u-1 … u-3.
        let directory = try runs.queryScratch(users: 4)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = [
            "PUSHLINE_JOURNAL": directory + "/journal.sqlite", "CRM_URL": crm.base, "CRM_TOKEN": Self.token,
            "OPS_WEBHOOK": hook.base + "/hook",
        ]
        let (registered, registration) = try await runs.run(
            ["run", directory + "/devices.yaml", "--quiet"], connection: full, environment: environment)
        #expect(registered == 0, "\(registration)")

        let (status, output) = try await runs.run(
            ["run", Self.pipeline, "--report", directory + "/report.json"], connection: full, environment: environment)
        #expect(status == 0, "\(output)")
        #expect(output.contains("read 3 rows in 2 pages"), "\(output)")
        #expect(output.contains("result: succeeded — 3 accepted (steps: 3 succeeded)"), "\(output)")
        #expect(try statuses(directory + "/report.json") == ["succeeded", "succeeded", "succeeded"])
        let pages = ["\(Self.membersPath) Bearer \(Self.token)", "\(Self.membersPath)?page=2 Bearer \(Self.token)"]
        #expect(crm.requests == pages)
        let (counts, messages) = try await runs.delivered(base)
        #expect(counts == ["u-1": 1, "u-2": 1, "u-3": 1], "\(counts)")
        #expect(
            messages.sorted() == (1...3).map { #"{"aps":{"alert":"Hi Member \#($0), your weekly digest is ready"}}"# })
        let first =
            "weekly digest: 3 sent, 0 already sent, 0 failed, 0 unknown, 0 bad of 3 members (members: succeeded )"
        #expect(texts(hook) == [first])

        // The same command with the same segment: it reads the CRM afresh, finds the rows the completed run sent, and
        // runs no step: nothing delivered, nothing posted.
        let (again, againOutput) = try await runs.run(
            ["run", Self.pipeline], connection: full, environment: environment)
        #expect(again == 0, "\(againOutput)")
        #expect(againOutput.contains("already completed at"), "\(againOutput)")
        #expect(crm.requests == pages + pages)
        #expect(try await runs.delivered(base).counts == counts)
        #expect(texts(hook) == [first])

        // A member joins: only u-4 is sent; the others were sent within the 6-day window.
        try crm.members(4)
        let (next, nextOutput) = try await runs.run(["run", Self.pipeline], connection: full, environment: environment)
        #expect(next == 0, "\(nextOutput)")
        #expect(try await runs.delivered(base).counts == ["u-1": 1, "u-2": 1, "u-3": 1, "u-4": 1])
        #expect(
            texts(hook) == [
                first,
                "weekly digest: 1 sent, 3 already sent, 0 failed, 0 unknown, 0 bad of 4 members (members: succeeded )",
            ])
        #expect(!(output + againOutput + nextOutput).contains(Self.token))
        #expect(try await emulator.stop() == 0)
    }
}
