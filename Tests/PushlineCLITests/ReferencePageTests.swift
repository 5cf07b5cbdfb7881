import CommandTestSupport
import Foundation
import Testing

@testable import PushlineCLI

/// The reference pages written from the code are committed as the code writes them: a change to a command's help or
/// to the exit codes that does not regenerate its page fails here.
@Suite struct ReferencePageTests {
    @Test(
        "docs/reference/commands.md, exit-codes.md and metrics.md are current",
        arguments: [
            ("docs/reference/commands.md", "commands"), ("docs/reference/exit-codes.md", "exit-codes"),
            ("docs/reference/metrics.md", "metrics"),
            ("docs/reference/files.md", "files"), ("docs/reference/report.md", "report"),
        ])
    func current(page: String, kind: String) throws {
        let committed = try String(contentsOfFile: CommandRunner.root + "/" + page, encoding: .utf8)
        let written =
            switch kind {
            case "commands": ReferenceCommand.commands()
            case "exit-codes": ReferenceCommand.exitCodes()
            case "metrics": ReferenceCommand.metrics()
            case "report": ReportFieldsReference.markdown()
            default: FileKeysReference.markdown()
            }
        #expect(committed == written, "\(page) is stale: run `swift run pushline reference \(kind) > \(page)`")
    }

    @Test("every command that is shown has its section, and the exit-code page every code with what to do")
    func complete() {
        let commands = ReferenceCommand.commands()
        for name in [
            "pushline run", "pushline runs outcomes", "pushline fcmv1 move", "pushline devices prune", "pushline serve",
        ] {
            #expect(commands.contains("\n## \(name)\n"), "\(name)")
        }
        #expect(!commands.contains("## pushline reference"))
        let files = FileKeysReference.markdown()
        for key in [
            "### `hubs.<name>`", "| `connection` |", "### `templates.<name>`", "| `retention` |", "### `service`",
        ] {
            #expect(files.contains(key), "\(key)")
        }
        let metrics = ReferenceCommand.metrics()
        for name in [
            "pushline_items", "pushline_outcomes", "pushline_run_exit_code", "pushline_http_requests_total",
            "pushline_hub_requests_total",
        ] {
            #expect(metrics.contains("| `\(name)` |"), "\(name)")
        }
        for meaning in ExitStatus.all {
            #expect(ExitStatus.whatToDo[meaning.code]?.isEmpty == false, "exit \(meaning.code) says what to do")
        }
    }

    @Test("every field the JSON report encodes has its meaning on the page, and every meaning a field")
    func reportFields() {
        let paths = Set(ReportFieldsReference.paths)
        let described = Set(ReportFieldsReference.meanings.keys)
        #expect(paths.count >= 30)
        #expect(
            paths.subtracting(described).isEmpty, "fields without a meaning: \(paths.subtracting(described).sorted())")
        #expect(described.subtracting(paths).isEmpty, "meanings of no field: \(described.subtracting(paths).sorted())")
    }
}
