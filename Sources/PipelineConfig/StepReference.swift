import Engine
import Foundation
import PipelineCore

/// The steps reference, written from the steps' own declarations (summary, options, examples): what
/// `pushline steps` prints and `docs/reference/steps.md` holds, so the documentation cannot drift from what
/// `validate` accepts.
package struct StepReference: Sendable {
    /// The steps described, in registry order.
    package let registry: StepRegistry

    /// Describes the steps of `registry`.
    package init(registry: StepRegistry) {
        self.registry = registry
    }

    /// The reference as Markdown: one section per step with its keys, what each needs or excludes, its outputs
    /// and examples.
    package var markdown: String {
        var lines =
            [
                "# Steps reference",
                "",
                "<!-- Written by `pushline steps --markdown` from the steps' own declarations; a test fails when this file is stale. -->",
                "",
                "Each entry of `steps:` has one key naming its kind, with its options beneath. Beside that key a step may have",
                "`id:` (letters, digits, `-` and `_`, unique in the file), `name:` (what progress lines, reports, the run journal",
                "and `runs show` call it) and `when:` (`\(StepCondition.keywords.joined(separator: "`, `"))`, or an expression such as",
                "`${steps.digest.failed} > 0 || ${param:channel} == \"ios\"`).",
                "",
                "A later step uses a step's outputs as `${steps.ID.OUTPUT}` (one item of a list: `${steps.ID.OUTPUT[0]}`) wherever a",
                "value goes in its options. Every step has its outputs whatever became of it: one that failed or did not run hands",
                "them on empty (0, empty text, an empty list, no rows), so a `when: always` summary can always read them. Besides",
                "its own, every step has:",
                "",
                "| output | type | meaning |",
                "|---|---|---|",
            ] + StepKind.commonOutputs.map { "| `\($0.name)` | \($0.type.documentation) | \(Self.cell($0.summary)) |" }
            + [
                "",
                registry.kinds.map { "[`\($0.id)`](#\($0.id))" }.joined(separator: " · "),
            ]
        for kind in registry.kinds {
            lines += ["", "## \(kind.id)", "", kind.summary, ""]
            lines += Self.table(kind.options)
            for (name, keys) in Self.nested(kind.options) {
                lines += ["", "Each entry of `\(name)`:", ""]
                lines += Self.table(keys)
            }
            if !kind.ownOutputs.isEmpty {
                lines += ["", "Outputs:", "", "| output | type | meaning |", "|---|---|---|"]
                lines += kind.ownOutputs.map {
                    "| `\($0.name)` | \($0.type.documentation) | \(Self.cell($0.summary)) |"
                }
            }
            if !kind.examples.isEmpty {
                lines += ["", "```yaml", "steps:"]
                lines += kind.examples.flatMap {
                    $0.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
                }
                lines.append("```")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One step as `pushline steps KIND` prints it: summary, keys, examples.
    package func text(for kind: StepKind) -> String {
        var lines = ["\(kind.id): \(kind.summary)", "", "OPTIONS"]
        func keys(_ specs: [OptionSpec], indent: String) {
            for spec in specs {
                lines.append("\(indent)\(spec.key)  (\(Self.facts(spec).joined(separator: "; ")))")
                lines.append("\(indent)    \(Self.meaning(spec))")
            }
        }
        keys(kind.options, indent: "  ")
        for (name, specs) in Self.nested(kind.options) {
            lines += ["", "EACH ENTRY OF \(name.uppercased())"]
            keys(specs, indent: "  ")
        }
        lines += ["", "OUTPUTS"]
        for output in kind.ownOutputs + StepKind.commonOutputs {
            lines.append("  \(output.name)  (\(output.type.documentation))")
            lines.append("      \(output.summary)")
        }
        if !kind.examples.isEmpty {
            lines += ["", "EXAMPLES"]
            lines += kind.examples.flatMap {
                $0.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every step, one line each.
    package var list: String {
        let width = registry.ids.map(\.count).max() ?? 0
        return registry.kinds.map { $0.id.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }
            .joined(separator: "\n") + "\n"
    }

    private static func table(_ specs: [OptionSpec]) -> [String] {
        ["| key | type | default | meaning |", "|---|---|---|---|"]
            + specs.map { spec in
                let defaultValue = spec.isRequired ? "required" : spec.defaultValue.map { "`\($0)`" } ?? ""
                return
                    "| `\(spec.key)` | \(cell(spec.typeDocumentation)) | \(cell(defaultValue)) | \(cell(meaning(spec))) |"
            }
    }

    /// The type, bounds and default, as one line of help.
    private static func facts(_ spec: OptionSpec) -> [String] {
        [spec.typeDocumentation] + (spec.isRequired ? ["required"] : spec.defaultValue.map { ["default \($0)"] } ?? [])
    }

    /// What the key does, and what it needs or excludes.
    private static func meaning(_ spec: OptionSpec) -> String {
        var text = spec.summary
        if let requirement = spec.requirement { text += ". Only with `\(requirement.key)`: \(requirement.reason)" }
        if let exclusion = spec.exclusion {
            text += ". Not with " + exclusion.keys.map { "`\($0)`" }.joined(separator: ", ")
        }
        return text
    }

    /// Keys whose values are mappings of their own keys (a list of devices), to describe below the step's table.
    private static func nested(_ specs: [OptionSpec]) -> [(String, [OptionSpec])] {
        func mapping(in type: OptionSpec.ValueType) -> [OptionSpec]? {
            switch type {
            case .mapping(let keys): return keys
            case .list(let item): return mapping(in: item)
            case .anyOf(let types): return types.lazy.compactMap(mapping).first
            default: return nil
            }
        }
        return specs.compactMap { spec in mapping(in: spec.type).map { (spec.key, $0) } }
    }

    /// Text safe in a Markdown table cell.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
