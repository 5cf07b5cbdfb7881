import ArgumentParser
import Engine
import Foundation
import PipelineCore
import RunFlow
import ServiceMetrics

/// `pushline reference commands|exit-codes|metrics`: the references in docs/reference/ written from the code that
/// defines them (ArgumentParser's command tree, the exit-code table, the metrics' own HELP lines), so no table is
/// typed twice. Hidden: it is for the
/// repository's docs, which a test keeps current.
struct ReferenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reference",
        abstract: "Write a reference page (commands, exit-codes, metrics, files, report) as Markdown.",
        shouldDisplay: false)

    enum Page: String, ExpressibleByArgument, CaseIterable {
        case commands
        case exitCodes = "exit-codes"
        case metrics
        case files
        case report
    }

    @Argument(help: "The page: commands, exit-codes, metrics, files or report.") var page: Page

    func run() throws {
        let console = Console.current
        switch page {
        case .commands: console.out(Self.commands())
        case .exitCodes: console.out(Self.exitCodes())
        case .metrics: console.out(Self.metrics())
        case .files: console.out(FileKeysReference.markdown())
        case .report: console.out(ReportFieldsReference.markdown())
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
                text +=
                    "```text\n" + PushlineCommand.helpMessage(for: command, columns: 100).trimmingTrailingWhitespace
                    + "\n```\n\n"
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

extension ReferenceCommand {
    /// Every Prometheus metric: the textfile `run --metrics` writes and `serve`'s `/metrics`, read from what each
    /// writes for a sample (its `# HELP` and `# TYPE` lines and one sample's labels), so the page says what the code
    /// emits.
    static func metrics() -> String {
        var send = StepRecord(
            index: 1, step: "send", location: "p.yaml:9:5", status: .succeeded, summary: "",
            items: ItemCounts(accepted: 1))
        send.outputs = .object([
            ReportField("outcome-state", .string("final")),
            ReportField("outcome-counts", .array([.string("apns Success 1")])),
        ])
        let report = RunReport(
            pipeline: "digest.yaml", dryRun: false, startedAt: Date(), finishedAt: Date(), status: .succeeded,
            steps: [send])
        let service = ServiceMetrics()
        service.request(route: "POST /api/register", status: 200, duration: .milliseconds(3))
        service.hubRequest(outcome: "2xx")
        return """
            # Metrics

            The Prometheus metrics Pushline writes, read from what the code writes (`pushline reference metrics`; a test
            fails when this page is stale).

            ## `pushline run --metrics FILE`

            A textfile for the node exporter's textfile collector, rewritten at the end of every run (and when a run
            cannot start): the last run of each pipeline.

            \(table(MetricsFile.render(report, seconds: 1, exitCode: 0)))
            ## `pushline serve`: `GET /metrics`

            Counters and latencies since the server started (the admin scope reads them).

            \(table(service.exposition()))
            """
    }

    /// `metric | type | labels | meaning` from an exposition text.
    private static func table(_ exposition: String) -> String {
        var order: [String] = []
        var help: [String: String] = [:]
        var type: [String: String] = [:]
        var labels: [String: [String]] = [:]
        for line in exposition.split(separator: "\n").map(String.init) {
            let words = line.split(separator: " ", maxSplits: 3).map(String.init)
            if line.hasPrefix("# HELP "), words.count >= 3 {
                if help[words[2]] == nil { order.append(words[2]) }
                help[words[2]] = words.count == 4 ? words[3] : ""
            } else if line.hasPrefix("# TYPE "), words.count >= 4 {
                type[words[2]] = words[3]
            } else if !line.hasPrefix("#"), let brace = line.firstIndex(of: "{") {
                // Histograms add `_bucket`, `_sum` and `_count`; labels are those of the metric's own samples.
                let name = String(line[..<brace])
                let base = order.first { name == $0 || name.hasPrefix($0 + "_") } ?? name
                let names = line[line.index(after: brace)...].prefix { $0 != "}" }.split(separator: ",")
                    .compactMap { $0.split(separator: "=").first.map(String.init) }.filter { $0 != "le" }
                if labels[base] == nil { labels[base] = names }
            }
        }
        var text = "| metric | type | labels | meaning |\n|---|---|---|---|\n"
        // By name: a registry's exposition order is not fixed.
        for name in order.sorted() {
            let shown = (labels[name] ?? []).map { "`\($0)`" }.joined(separator: ", ")
            text += "| `\(name)` | \(type[name] ?? "") | \(shown) | \(help[name] ?? "") |\n"
        }
        return text
    }
}

extension String {
    fileprivate var trimmingTrailingWhitespace: String {
        var text = self
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
