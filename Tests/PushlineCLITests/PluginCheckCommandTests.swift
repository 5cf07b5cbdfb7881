import CommandTestSupport
import Foundation
import Testing

/// `pushline plugin check` on the plugins Pushline ships, as their authors and users run it.
@Suite struct PluginCheckCommandTests {
    static let plugins = CommandRunner.root + "/plugins/"

    @Test(
        "both shipped plugins pass as they are, with their own examples; what those need from a pipeline is skipped, not failed"
    )
    func shippedPluginsPass() async throws {
        for plugin in ["http_rows.py", "webhook.py"] {
            let output = await CommandRunner.run(["plugin", "check", "--", "python3", Self.plugins + plugin])
            #expect(output.status == 0, "\(plugin): \(output.out)\(output.err)")
            #expect(!output.out.contains("FAIL"), "\(plugin): \(output.out)")
            #expect(
                output.out.contains("ok   check (example 1): the plugin accepts the options"),
                "\(plugin): \(output.out)")
        }
    }

    @Test("a plugin with external effects is run only with --run: without it nothing is posted")
    func externalRunsOnlyWhenAsked() async throws {
        let options = #"{url: "http://127.0.0.1:1/hook", text: "hello"}"#
        let safe = await CommandRunner.run([
            "plugin", "check", "--options", options, "--", "python3", Self.plugins + "webhook.py",
        ])
        #expect(safe.status == 0, "\(safe.out)")
        #expect(
            safe.out.contains(
                "skip run (--options): it has external effects and would act for real: give --run to run it"),
            "\(safe.out)")
        // With --run it posts for real: here to a closed port, so the run part fails, naming the plugin as examples do.
        let run = await CommandRunner.run([
            "plugin", "check", "--run", "--options", options, "--", "python3", Self.plugins + "webhook.py",
        ])
        #expect(run.status == 1, "\(run.out)")
        #expect(run.out.contains("FAIL run (--options):"), "\(run.out)")
    }

    @Test("options given on the command line are read as a pipeline reads them: a number written as text is a number")
    func optionsAreTyped() async throws {
        let output = await CommandRunner.run([
            "plugin", "check", "--no-run", "--options",
            #"{"url": "http://127.0.0.1:1/", "max-pages": "7", "timeout": "90s"}"#,
            "--", "python3", Self.plugins + "http_rows.py",
        ])
        #expect(output.out.contains("       max-pages: 7\n"), "\(output.out)")
        #expect(output.out.contains("       timeout: 90\n"), "\(output.out)")
        let bad = await CommandRunner.run([
            "plugin", "check", "--no-run", "--options", #"{"url": "http://x/", "max-page": 7}"#,
            "--", "python3", Self.plugins + "http_rows.py",
        ])
        #expect(bad.status == 1)
        #expect(bad.out.contains("unknown key 'max-page'; did you mean 'max-pages'?"), "\(bad.out)")
    }
}
