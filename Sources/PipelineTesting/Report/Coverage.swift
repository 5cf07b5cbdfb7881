import Engine
import PipelineCore

/// What a pipeline is made of, as coverage counts it: its steps (with their `when:`) and its templates.
package struct PipelineShape: Sendable {
    /// One step.
    package struct Step: Sendable {
        /// 1-based position.
        package var index: Int
        /// What it is called: its id, or its kind and position.
        package var name: String
        /// Where it is written.
        package var location: SourceLocation
        /// Its `when:` as written, when it has one.
        package var when: String?
        /// True when its condition can also skip it (`when: always` never does).
        package var canSkip: Bool
        /// The pipeline's templates it names.
        package var templates: [String]
    }

    /// The steps, in order.
    package var steps: [Step]
    /// The pipeline's templates, with where each is declared.
    package var templates: [(name: String, location: SourceLocation)]

    /// The shape of `document`.
    init(_ document: PipelineDocument) {
        steps = document.steps.map { step in
            let options = step.options.entries ?? []
            let named = options.filter { ["template", "templates"].contains($0.key) }.flatMap { entry in
                entry.value.items.map { $0.compactMap(\.scalar?.text) } ?? [entry.value.scalar?.text].compactMap { $0 }
            }
            var canSkip = true
            if case .always = step.condition { canSkip = false }
            return Step(
                index: step.index, name: step.id ?? "\(step.kind) (step \(step.index))", location: step.location,
                when: step.conditionLocation == nil ? nil : step.condition.written, canSkip: canSkip,
                templates: named.filter { name in document.templates.contains { $0.name == name } })
        }
        templates = document.templates.map { ($0.name, $0.location) }
    }
}

/// Which steps ran and which were skipped in one case's runs.
package struct CaseCoverage: Sendable {
    /// The pipeline.
    package var pipeline: String
    /// Its shape.
    package var shape: PipelineShape
    /// Steps (by position) that ran in some run.
    package var ran: Set<Int> = []
    /// Steps (by position) that were skipped in some run because of an earlier step or their `when:`.
    package var skipped: Set<Int> = []

    /// Records a run's report.
    mutating func record(_ report: RunReport) {
        // A run that found its work done ran nothing: it exercises no branch.
        guard report.unchanged == nil else { return }
        for step in report.steps {
            switch step.status {
            case .skipped: skipped.insert(step.index)
            case .interrupted: break
            default: ran.insert(step.index)
            }
        }
    }
}

/// What no case of a pipeline exercised: steps that never ran, `when:` branches never taken, templates never used.
package struct CoverageReport: Sendable {
    /// One pipeline's gaps.
    package struct Pipeline: Sendable {
        package var pipeline: String
        package var steps: Int
        package var stepsRan: Int
        package var branches: Int
        package var branchesTaken: Int
        package var templates: Int
        package var templatesUsed: Int
        /// Each gap, with where it is written.
        package var gaps: [(location: SourceLocation, text: String)]
    }

    /// Per pipeline, in order of their paths.
    package var pipelines: [Pipeline]

    /// The coverage of the cases in `results`.
    package init(_ results: [CaseResult]) {
        let byPipeline = Dictionary(grouping: results.compactMap(\.coverage)) { $0.pipeline }
        pipelines = byPipeline.keys.sorted().compactMap { path in
            guard let cases = byPipeline[path], let shape = cases.first?.shape else { return nil }
            let ran = cases.reduce(into: Set<Int>()) { $0.formUnion($1.ran) }
            let skipped = cases.reduce(into: Set<Int>()) { $0.formUnion($1.skipped) }
            var report = Pipeline(
                pipeline: path, steps: shape.steps.count, stepsRan: 0, branches: 0, branchesTaken: 0,
                templates: shape.templates.count, templatesUsed: 0, gaps: [])
            for step in shape.steps {
                if ran.contains(step.index) {
                    report.stepsRan += 1
                } else {
                    report.gaps.append((step.location, "step '\(step.name)' ran in no case"))
                }
                guard let when = step.when else { continue }
                report.branches += step.canSkip ? 2 : 1
                report.branchesTaken += ran.contains(step.index) ? 1 : 0
                if step.canSkip {
                    if skipped.contains(step.index) {
                        report.branchesTaken += 1
                    } else {
                        report.gaps.append(
                            (step.location, "step '\(step.name)' (when: \(when)) was skipped in no case"))
                    }
                }
            }
            let used = Set(shape.steps.filter { ran.contains($0.index) }.flatMap(\.templates))
            for template in shape.templates {
                if used.contains(template.name) {
                    report.templatesUsed += 1
                } else {
                    report.gaps.append((template.location, "template '\(template.name)' was used by no step that ran"))
                }
            }
            return report
        }
    }

    /// A line per pipeline, then its gaps.
    package var text: String {
        pipelines.map { pipeline in
            var line = "coverage: \(pipeline.pipeline): \(pipeline.stepsRan) of \(pipeline.steps) steps ran"
            if pipeline.branches > 0 { line += ", \(pipeline.branchesTaken) of \(pipeline.branches) when: branches" }
            if pipeline.templates > 0 { line += ", \(pipeline.templatesUsed) of \(pipeline.templates) templates used" }
            return ([line] + pipeline.gaps.map { "  \($0.location): \($0.text)" }).joined(separator: "\n") + "\n"
        }.joined()
    }
}
