import ArgumentParser
import RunFlow

/// `pushline reference commands|exit-codes`: the references in docs/reference/ written from the code that defines
/// them (ArgumentParser's command tree, the exit-code table), so no table is typed twice. Hidden: it is for the
/// repository's docs, which a test keeps current.
struct ReferenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reference", abstract: "Write a reference page (commands, exit-codes) as Markdown.", shouldDisplay: false)

    enum Page: String, ExpressibleByArgument, CaseIterable {
        case commands
        case exitCodes = "exit-codes"
    }

    @Argument(help: "The page: commands or exit-codes.") var page: Page

    func run() throws {
        let console = Console.current
        switch page {
        case .commands: console.out(Self.commands())
        case .exitCodes: console.out(Self.exitCodes())
        }
    }

    /// Every command's `--help`, in the order `pushline --help` lists them.
    static func commands() -> String {
        var text = """
            # Commands

            Every command's `--help`, as `pushline` prints it (and `man pushline` holds it too). Written by
            `pushline reference commands`; a test fails when this page is stale.


            """
        func visit(_ command: any ParsableCommand.Type, path: [String]) {
            let configuration = command.configuration
            guard configuration.shouldDisplay else { return }
            let name = configuration.commandName ?? "pushline"
            let full = path + [name]
            if full.count > 1 {
                text += "## \(full.joined(separator: " "))\n\n"
                if !configuration.abstract.isEmpty { text += configuration.abstract + "\n\n" }
                text += "```text\n" + PushlineCommand.helpMessage(for: command, columns: 100).trimmingTrailingWhitespace + "\n```\n\n"
            }
            for sub in configuration.subcommands { visit(sub, path: full) }
        }
        visit(PushlineCommand.self, path: [])
        return text.trimmingTrailingWhitespace + "\n"
    }

    /// The exit codes every command draws from, what each means and what to do.
    static func exitCodes() -> String {
        var text = """
            # Exit codes

            What a `pushline` exit code means and what to do about it; each command's `--help` lists the codes it can
            return. Written by `pushline reference exit-codes`; a test fails when this page is stale.

            | code | meaning | what to do |
            |---|---|---|

            """
        for meaning in ExitStatus.all {
            text += "| \(meaning.code) | \(meaning.text) | \(ExitStatus.whatToDo[meaning.code] ?? "") |\n"
        }
        return text
    }
}

private extension String {
    var trimmingTrailingWhitespace: String {
        var text = self
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
