import Foundation
import Testing
@testable import PushlineCLI

/// The reference pages written from the code are committed as the code writes them: a change to a command's help or
/// to the exit codes that does not regenerate its page fails here.
@Suite struct ReferencePageTests {
    @Test("docs/reference/commands.md and exit-codes.md are current", arguments: [
        ("docs/reference/commands.md", "commands"), ("docs/reference/exit-codes.md", "exit-codes"),
    ])
    func current(page: String, kind: String) throws {
        let committed = try String(contentsOfFile: CommandRunner.root + "/" + page, encoding: .utf8)
        let written = kind == "commands" ? ReferenceCommand.commands() : ReferenceCommand.exitCodes()
        #expect(committed == written, "\(page) is stale: run `swift run pushline reference \(kind) > \(page)`")
    }

    @Test("every command that is shown has its section, and the exit-code page every code with what to do")
    func complete() {
        let commands = ReferenceCommand.commands()
        for name in ["pushline run", "pushline runs outcomes", "pushline fcmv1 move", "pushline devices prune", "pushline serve"] {
            #expect(commands.contains("\n## \(name)\n"), "\(name)")
        }
        #expect(!commands.contains("## pushline reference"))
        for meaning in ExitStatus.all {
            #expect(ExitStatus.whatToDo[meaning.code]?.isEmpty == false, "exit \(meaning.code) says what to do")
        }
    }
}
