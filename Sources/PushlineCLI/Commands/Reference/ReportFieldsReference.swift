import Engine
import Foundation
import HubWire
import PipelineCore
import PluginStep
import QueryStep
import RunFlow

/// docs/reference/report.md: every field of the JSON report (`run --format json`, `--report FILE`). The paths are read
/// from the report the code encodes (a sample with every optional field set), and a test fails when a field has no
/// meaning here or a meaning names a field that is gone.
enum ReportFieldsReference {
    /// Each field's meaning, by its path (`steps[].items.accepted`).
    static let meanings: [String: String] = [
        "pipeline": "the pipeline file as given",
        "name":
            "the pipeline's name: its `name:`, else its file name without the extension (as the journal and the metrics call it)",
        "dryRun": "true for `--dry-run`: nothing was sent",
        "startedAt": "when the run started (ISO 8601, UTC, whole seconds)",
        "finishedAt": "when it ended",
        "status":
            "how it ended: `succeeded`, `partial`, `undelivered`, `failed`, `interrupted` or `rejected` (the input check stopped it); the exit code follows from it",
        "runId": "the journal's id of the run (live runs), as `pushline runs` shows it",
        "resumed": "true when this run resumed an attempt that was cut off",
        "unchanged":
            "set when nothing ran because the work was done: why (the same run completed, or the sources gave the rows a completed run sent); `runId` is then that run's",
        "steps": "one record per step, in order, run or not",
        "steps[].index": "the step's number, from 1",
        "steps[].step": "its kind: `send`, `register`, a plugin's kind, …",
        "steps[].id": "its `id:`, when it has one (what later steps refer to)",
        "steps[].name": "its name, when the pipeline gives one",
        "steps[].location": "where it is declared: `file:line:column`",
        "steps[].status": "`succeeded`, `partial`, `failed`, `skipped` or `interrupted`",
        "steps[].summary": "one line: what it did, or why it failed",
        "steps[].lines": "the detail lines the text report prints under the summary",
        "steps[].data":
            "the step's own details (for `send`: notification ids, items not accepted by reason, `outcomes`; see each step in the steps reference)",
        "steps[].durationMs": "how long it took",
        "steps[].hint": "what to do, when it failed",
        "steps[].code":
            "when it failed, what kind of failure, in words that stay the same across releases (the message may be reworded): one of the codes below",
        "steps[].outputs":
            "its declared outputs by name, as later steps read them ([the steps reference](steps.md) lists each step's)",
        "steps[].items": "for batch steps, where every item ended; the counts add up to the items read",
        "steps[].items.accepted": "accepted by the hub in this run",
        "steps[].items.planned": "dry runs: would be sent",
        "steps[].items.failed": "refused by the hub, or could not be built",
        "steps[].items.unknown":
            "sent, fate unknown (a timeout after the request was written); not resent unless asked",
        "steps[].items.skipped": "accepted by an earlier attempt of this run",
        "steps[].items.duplicates": "held back: the same notification was already sent within the dedupe window",
        "steps[].items.bad": "malformed records of the input: never sent",
        "steps[].items.otherShards": "rows of other shards of a `--shard I/N` run",
        "steps[].input": "the input check of the step's rows file, when it reads one",
        "steps[].input.file": "the input file",
        "steps[].input.records": "records read",
        "steps[].input.bad": "malformed records among them",
        "steps[].input.multiLine": "records with a quoted CSV field over several lines",
        "steps[].input.badRows": "`stop` or `skip`: what malformed rows do",
    ]

    /// A report with every optional field set, as the code encodes it.
    static var sample: RunReport {
        var step = StepRecord(
            index: 1, step: "send", location: "digest.yaml:9:5", status: .partial, summary: "sent", lines: ["line"],
            data: .object([]), durationMs: 1, hint: "hint", items: ItemCounts(accepted: 1))
        step.code = StepFailure.Code.hubRefused.rawValue
        step.id = "digest"
        step.name = "digest"
        step.outputs = .object([ReportField("accepted", .int(1))])
        var check = InputCheck(input: "rows.csv", policy: .stop)
        check.records = 1
        step.input = InputSummary(check)
        var report = RunReport(
            pipeline: "digest.yaml", dryRun: false, startedAt: Date(timeIntervalSince1970: 0),
            finishedAt: Date(timeIntervalSince1970: 1), status: .partial, steps: [step])
        report.runId = "20261127-000000-000000"
        report.name = "digest"
        report.resumed = false
        report.unchanged = "the sources gave the rows run 20261126-000000-000000 sent"
        return report
    }

    /// The field paths of the encoded sample: objects' keys, `[]` for array elements; `data` and `outputs` are the
    /// steps' own and end the walk.
    static var paths: [String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(JSONText.encode(sample).utf8)) else {
            return []
        }
        var found: [String] = []
        func walk(_ value: Any, _ path: String) {
            if let dictionary = value as? [String: Any] {
                for (key, inner) in dictionary {
                    let next = path.isEmpty ? key : "\(path).\(key)"
                    found.append(next)
                    if key != "data", key != "outputs" { walk(inner, next) }
                }
            } else if let array = value as? [Any] {
                for element in array { walk(element, path + "[]") }
            }
        }
        walk(object, "")
        return Array(Set(found)).sorted()
    }

    static func markdown() -> String {
        var text = """
            # The JSON report

            What `pushline run --format json` prints and `--report FILE` writes, field by field (written by
            `pushline reference report` from the report the code encodes; a test fails when a field is missing here).
            A run that cannot start (an invalid pipeline) writes `{"pipeline", "status": "invalid", "diagnostics"}`
            instead, and one that does not start because another run of the pipeline holds its lock (exit 75) writes
            `{"pipeline", "status": "locked", "message", "exitCode"}` (its `--metrics` file is left to the running run);
            one that ends before its run starts for another reason (the run journal cannot be reached or is set up
            wrongly, an `--env-file` that cannot be read, a split that differs) writes
            `{"pipeline", "name", "status": "not-started", "message", "exitCode"}`. A start that finds its work done
            writes the full report, with `unchanged` saying why nothing was sent.

            | field | meaning |
            |---|---|

            """
        for path in paths { text += "| `\(path)` | \(meanings[path] ?? "") |\n" }
        text += """

            ## Failure codes

            A failed step's `code`: scripts and alerts can match on it.

            | code | meaning |
            |---|---|

            """
        for (code, meaning) in StepFailure.coreCodes + QueryStep.failureCodes + PluginStep.failureCodes {
            text += "| `\(code)` | \(meaning) |\n"
        }
        return text
    }
}
