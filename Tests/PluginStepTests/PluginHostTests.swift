import Foundation
import PipelineCore
import PluginProtocol
import ProcessTestSupport
import Testing

@testable import PluginStep

@Suite("A plugin step: the host's side of the protocol with a real child process")
struct PluginHostTests {
    @Test("describe gives the plugin's options, outputs and effects as the host documents them")
    func describeReadsTheDescription() async throws {
        let description = try await scripted("good").describe()
        #expect(description.summary == "rows of a pretend CRM segment")
        #expect(description.effects == .none)
        #expect(description.options.map(\.key) == ["segment", "limit", "tags", "api-key"])
        #expect(description.options[0].isRequired && description.options[1].defaultValue == "3")
        #expect(description.options[2].type == .stringList)
        #expect(description.options.map(\.isSecret) == [false, false, false, true])
        #expect(description.outputs.map(\.name) == ["rows", "count", "note"])
        #expect(description.outputs[0].type == .rows)
    }

    @Test(
        "a run's rows are spooled in order with the first row's keys as columns; its outputs are handed on, secrets hidden"
    )
    func runSpoolsRowsAndHandsOnOutputs() async throws {
        let result = try await step(
            scripted("good"), options: .object(["segment": .string("vip"), "limit": .integer(5)])
        ).run(in: context())
        guard case .rows(let rows)? = result.outputs["rows"] else {
            Issue.record("no rows output")
            return
        }
        #expect(rows.count == 5)
        #expect(rows.columns == ["n", "name", "userId", "vip"])
        let lines = try String(contentsOfFile: try #require(rows.file), encoding: .utf8).split(separator: "\n")
        #expect(lines.first == #"{"n":"1","name":"User 1","userId":"u1","vip":"false"}"#)
        #expect(lines.count == 5)
        #expect(result.outputs["count"] == .integer(5))
        #expect(result.outputs["note"] == .string("token <redacted>"))
        #expect(result.summary == "read 5 users of vip")
    }

    @Test("a rows output may declare its columns; a run whose rows lack one fails with what is missing")
    func declaredColumns() async throws {
        let declared = try await step(scripted("columns"))
        #expect(declared.columns(of: "rows") == ["userId", "name", "n", "vip"] && declared.columns(of: "count") == nil)
        let result = try await declared.run(in: context())
        guard case .rows(let rows)? = result.outputs["rows"] else {
            Issue.record("no rows output")
            return
        }
        #expect(rows.count == 3)
        #expect(try await step(scripted("good")).columns(of: "rows") == nil, "undeclared: only the run knows them")
        let failure = await failure(of: try await step(scripted("columns-missing")))
        #expect(
            failure?.message
                == "plugin 'crm': protocol error: row 1 has no 'email', a column the plugin declared for its rows")
    }

    @Test("a boolean output is handed on as true or false; text in its place is a protocol error")
    func booleanOutputs() async throws {
        let result = try await step(scripted("boolean")).run(in: context())
        #expect(result.outputs["complete"] == .boolean(true))
        let failure = await failure(of: try await step(scripted("boolean-text")))
        #expect(failure?.message == #"plugin 'crm': protocol error: output 'complete' must be boolean, found "yes""#)
    }

    @Test("the plugin's environment is what env: lists and nothing else: no PATH, no hub key, no HOME")
    func environmentIsOnlyWhatIsListed() async throws {
        let result = try await step(scripted("env", environment: ["CRM_URL": "http://crm", "CRM_TOKEN": "abc-123"]))
            .run(in: context())
        // Python adds nothing to os.environ but LC_CTYPE on some systems; everything else would have been inherited.
        let names = Set(
            (result.outputs["note"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "").split(
                separator: ","
            ).map(String.init))
        #expect(names.subtracting(["LC_CTYPE"]) == ["CRM_URL", "CRM_TOKEN"])
    }

    @Test(
        "a line that is not JSON fails the step, and the failure quotes the last stderr lines",
        arguments: ["malformed", "stdout-logs"])
    func nonJSONFails(mode: String) async throws {
        let failed = try #require(await failure(of: step(scripted(mode))))
        #expect(failed.message.contains("protocol error: stdout line 2: a line is not JSON"), "\(failed.message)")
        #expect(failed.hint?.contains("logs on stderr") == true)
    }

    @Test("a line over the cap is refused without reading it whole")
    func overlongLineFails() async throws {
        let failed = try #require(await failure(of: step(scripted("overlong"))))
        #expect(failed.message.contains("is longer than 1024 KiB"), "\(failed.message)")
    }

    @Test(
        "an answer with another request's id, or none, fails the step",
        arguments: [("wrong-id", "carries id 99"), ("no-id", "has no integer \"id\"")])
    func wrongOrMissingID(mode: String, expected: String) async throws {
        let failed = try #require(await failure(of: step(scripted(mode))))
        #expect(failed.message.contains(expected), "\(failed.message)")
    }

    // Stopped, not waited out: the hang sleeps for an hour. The limit counts from the start, which Python can take
    // seconds for on a loaded machine, so it must be wide enough to reach the stderr line.
    @Test(
        "a plugin that hangs is stopped at its timeout; the step fails with its last stderr lines",
        .timeLimit(.minutes(2)))
    func hangingPluginIsStopped() async throws {
        let failed = try #require(await failure(of: step(scripted("hang", timeout: 30))))
        #expect(failed.message.contains("did not finish within 30 s, so it was stopped"), "\(failed.message)")
        #expect(failed.lines.contains("stderr: working on it"))
        #expect(failed.code == .pluginTimeout)
    }

    @Test(
        "only secrets are hidden: env values named like secrets and secret options; other values are shown as they are")
    func onlySecretsAreHidden() async throws {
        let host = try scripted(
            "words", environment: ["ABUSE": "fork", "ROWS": "1000000", "CRM_TOKEN": "s3cret-token"])
        let step = try await step(host, options: .object(["segment": .string("vip"), "api-key": .string("k-98765")]))
        let result = try await step.run(in: context())
        #expect(result.summary == "forked 1000000 rows with token <redacted> and key <redacted>")
        #expect(result.outputs["note"] == .string("forked 1000000 rows with token <redacted> and key <redacted>"))
    }

    @Test(
        "each limit is named for what it is: describe's own, the run's timeout:, the exit after stdin closes",
        .timeLimit(.minutes(2)))
    func limitsSayWhatToDo() async throws {
        var describing = try scripted("hang-describe")
        describing.handshakeTimeout = .seconds(2)
        do {
            _ = try await describing.describe()
            Issue.record("a describe that hangs must fail")
        } catch {
            #expect(error.message.contains("did not finish within 2 s"), "\(error.message)")
            #expect(
                error.hint?.hasPrefix(
                    "answer describe and check within 2 s, a limit of their own that `timeout:` does not change")
                    == true,
                "\(error.hint ?? "")")
        }
        let running = try #require(await failure(of: step(scripted("hang", timeout: 3))))
        #expect(running.hint == "raise the plugin's `timeout:` if the work takes longer")
        var lingering = try scripted("linger")
        lingering.exitGrace = .seconds(2)
        let lingered = try #require(await failure(of: step(lingering)))
        #expect(
            lingered.message.contains("answered but did not exit within 2 s of its stdin closing"),
            "\(lingered.message)")
        #expect(lingered.hint == "exit when stdin closes (the end of input): the conversation is over")
    }

    @Test("a plugin that dies half-way through its rows fails the step; no result is made up")
    func crashHalfWay() async throws {
        let failed = try #require(
            await failure(
                of: step(scripted("crash"), options: .object(["segment": .string("vip"), "limit": .integer(6)]))))
        #expect(failed.message.contains("ended without answering the run request"), "\(failed.message)")
        #expect(failed.lines.contains("stderr: segment page 2 failed"))
        #expect(failed.lines.contains("stderr: reading segment vip with token <redacted>"))
    }

    @Test("a plugin that answers and then exits non-zero fails the step")
    func exitCodeContradictsResult() async throws {
        let failed = try #require(await failure(of: step(scripted("exit-mismatch"))))
        #expect(failed.message.contains("answered, then exited with code 1"), "\(failed.message)")
    }

    @Test("a plugin's error is the step's failure, with its hint, and its secrets hidden")
    func pluginErrorFailsTheStep() async throws {
        let failed = try #require(await failure(of: step(scripted("error"))))
        #expect(failed.message == "plugin 'crm': the CRM said 401 to token <redacted>")
        #expect(failed.hint == "check CRM_TOKEN")
        #expect(failed.code == .pluginError)
    }

    @Test("a failure's code names its kind: the protocol broken, the plugin gone")
    func failureCodes() async throws {
        #expect(await failure(of: try await step(scripted("malformed")))?.code == .pluginProtocol)
        #expect(await failure(of: try await step(scripted("crash")))?.code == .pluginFailed)
    }

    @Test("a dry run does not run a plugin with external effects; it runs one without")
    func dryRuns() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-marker-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let external = try await step(scripted("external", environment: ["MARKER": marker]))
        let skipped = try await external.run(in: context(dryRun: true))
        #expect(skipped.summary.contains("would run plugin 'crm'"))
        #expect(!FileManager.default.fileExists(atPath: marker))
        _ = try await external.run(in: context())
        #expect(FileManager.default.fileExists(atPath: marker))
        let readOnly = try await step(scripted("good")).run(in: context(dryRun: true))
        #expect(readOnly.outputs["count"] == .integer(3))
    }

    @Test("check hands back the plugin's problems by path")
    func checkReturnsProblems() async throws {
        let host = try scripted("good")
        #expect(try await host.check(.object(["segment": .string("vip")])).isEmpty)
        let problems = try await host.check(.object(["segment": .string("nobody")]))
        #expect(problems.count == 1)
        #expect(problems.first?.path == [.string("segment")])
        #expect(problems.first?.message == "no segment is called 'nobody'")
    }

    @Test("a description without effects is refused with what to write")
    func badDescription() async throws {
        let host = try scripted("bad-describe")
        do throws(PluginFailure) {
            _ = try await host.describe()
            Issue.record("a description without effects was taken")
        } catch {
            #expect(error.message.contains("needs \"effects\": \"none\" or \"external\""), "\(error.message)")
        }
    }

    @Test("a line quoted in an error has the plugin's secrets hidden before it is cut")
    func quotedLinesAreRedacted() async throws {
        let failed = try #require(await failure(of: step(scripted("leaky-stdout"))))
        #expect(failed.message.contains("token=<redacted>"), "\(failed.message)")
        #expect(!failed.message.contains("s3cret"))
    }

    @Test("a plugin that writes on stdout after its last answer fails the step")
    func writingAfterTheAnswerFails() async throws {
        let failed = try #require(await failure(of: step(scripted("extra-after"))))
        #expect(failed.message.contains("came after the last answer"), "\(failed.message)")
    }

    @Test("stopping a plugin stops what it started: its process group goes with it")
    func timeoutStopsThePluginsChildren() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-child-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let host = try scripted("spawns", environment: ["PIDFILE": pidFile, "PATH": "/usr/bin:/bin"], timeout: 30)
        let failed = try #require(await failure(of: step(host)))
        #expect(failed.message.contains("did not finish within 30 s"), "\(failed.message)")
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8)))
        // Killed with its group; a loaded machine may take seconds to deliver that.
        #expect(ProcessEnd.wait(for: pid, within: .seconds(30)), "the plugin's child \(pid) outlived it")
    }
}

@Suite("Waiting for a process to end")
struct ProcessEndTests {
    @Test("a process that runs has not ended; once killed it has, whoever reaps it; one that is gone has ended")
    func waitsForTheKernelsWord() throws {
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["600"]
        try sleeper.run()
        let pid = sleeper.processIdentifier
        #expect(!ProcessEnd.wait(for: pid, within: .milliseconds(20)), "it sleeps for ten minutes")
        kill(pid, SIGKILL)
        #expect(ProcessEnd.wait(for: pid, within: .seconds(60)))
        sleeper.waitUntilExit()
        #expect(ProcessEnd.wait(for: pid, within: .zero), "reaped: no such process")
    }
}
