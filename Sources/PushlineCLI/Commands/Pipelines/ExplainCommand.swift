import ArgumentParser
import Foundation
import HubExpressions
import RunFlow

/// `pushline explain EXPRESSION`: a tag expression in plain words, with NH's limits checked.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain a tag expression in plain words and check it against NH's limits.",
        discussion: """
            NH allows at most 20 tags in an expression that uses only ||, and at most 6 otherwise. \
            With --match, the last line printed is exactly `match` or `no match` for a device with those tags.

            EXAMPLES:
              pushline explain "(follows_RedSox || follows_Cardinals) && location_Boston"
              pushline explain "follows_RedSox && !muted" --match follows_RedSox,location_Boston

            \(ExitStatus.help([
                .init("0", "the expression is valid and within NH's limits (with --match, the last line says match or no match)"),
                .init("2", "the expression is invalid or breaks NH's limits"),
            ]))
            """)

    @Argument(help: "The tag expression (quote it for the shell).")
    var expression: String

    @Option(help: "Comma-separated tags of a device to test the expression against.")
    var match: String?

    func run() async throws {
        let console = Console.current
        let parsed: TagExpression
        do {
            parsed = try TagExpression(parsing: expression)
        } catch {
            console.errorLine("error: column \(error.column): \(error.message)")
            console.errorLine("  \(expression)")
            console.errorLine("  " + DiagnosticPrinter.caretLine(under: expression, column: error.column))
            if let hint = error.hint { console.errorLine("  hint: \(hint)") }
            throw ExitStatus.exit(ExitStatus.invalidInput)
        }
        console.line("expression: \(parsed.description)")
        console.line("matches devices that:")
        for line in parsed.explanation() { console.line("  \(line)") }
        let reason = parsed.usesOnlyOr ? "it uses only ||" : "it uses && or !"
        console.line("tags: \(parsed.tags.count) of at most \(parsed.tagLimit) (\(reason))")
        let violation = parsed.limitViolation()
        if let violation {
            console.line("within NH limits: no: \(violation.message)")
            if let hint = violation.hint { console.line("  hint: \(hint)") }
        } else {
            console.line("within NH limits: yes")
        }
        if let match {
            let tags = Set(
                match.split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces)) }.filter {
                    !$0.isEmpty
                })
            for tag in tags.sorted() {
                if let problem = TagSyntax.problem(with: tag) { throw CommandFailure("--match: \(problem)") }
            }
            console.line(parsed.matches(tags) ? "match" : "no match")
        }
        if violation != nil { throw ExitStatus.exit(ExitStatus.invalidInput) }
    }
}
